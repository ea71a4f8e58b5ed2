-- 40_verdict_settings: how the expansion retrieved its candidates, to search past its depth for
-- the unjudged part of a verdict-level sample: the recorded settings (expansions.config), else
-- what the candidates show (their most frequent retriever, their deepest non-reference rank).
-- Reads: expansions, candidates, subqueries. Creates: nothing.
-- Parameters: $benchmark, $expansion.
SELECT (SELECT config ->> 'retriever' FROM expansions
        WHERE benchmark = $benchmark AND expansion = $expansion) AS config_retriever,
       (SELECT TRY_CAST(config ->> 'depth' AS INTEGER) FROM expansions
        WHERE benchmark = $benchmark AND expansion = $expansion) AS config_depth,
       (SELECT config ->> 'scope' FROM expansions
        WHERE benchmark = $benchmark AND expansion = $expansion) AS config_scope,
       mode(c.retriever) AS retriever,
       max(c.rank) FILTER (WHERE c.item_id <> s.reference) AS depth,
       count(DISTINCT (c.query_id, c.slot)) AS subqueries
FROM candidates c
JOIN subqueries s USING (benchmark, expansion, query_id, slot)
WHERE c.benchmark = $benchmark AND c.expansion = $expansion
