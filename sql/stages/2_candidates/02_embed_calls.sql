-- 02_embed_calls: the embedding calls an endpoint retriever has made so far (every attempt, as
-- the call ledger counts them) and their cost, so the candidates stage reports its calls like a
-- judged stage. Reads: llm_calls. Creates: nothing (one row calls, cost_usd).
-- Parameters: $retriever (the retriever's public spec: the ledger's judge column; for a hybrid,
-- its endpoint parts are counted).
SELECT count(*) AS calls, coalesce(sum(cost_usd), 0) AS cost_usd
FROM llm_calls
WHERE stage = 'embed'
  AND ($retriever = judge OR list_contains(string_split($retriever, '+'), judge)
       OR list_contains(string_split($retriever, '+'), 'hybrid:' || judge));
