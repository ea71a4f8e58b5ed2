-- 51_ledger_usage: what the LLM calls cost and what they answered, by stage, judge and model.
-- Reads: llm_calls, subqueries, verdicts, combinations. Creates: nothing (a result set).
-- Parameters: $by_stage, $by_judge, $by_model (BOOLEAN: group by that column; a column not
-- grouped by is NULL in every row).
-- attempts = ledger rows (HTTP attempts, failures included); tasks = pipeline outputs answered
-- by an ok call (a decomposed query, a verdict, an audited combination); served = those whose
-- call another task paid for (an identical prompt in the same run, or a ledger hit in a later
-- run or another expansion): tasks - distinct calls; reused = verdicts carried over from another
-- sub-query's verdict on the same (reference, candidate) pair (judge 'reused', call_id = the
-- call that made the original). Pipeline outputs that no call made (references, the offline
-- judge, the pre-screen) are counted by 52_ledger_uncalled.sql. An embedding call (stage
-- 'embed', toolex.llm.embeddings) answers the texts it embedded (its parsed.texts) and serves
-- none: the retriever's embedding cache, not the ledger, serves texts embedded before.
WITH answered AS (
    SELECT DISTINCT call_id, benchmark, expansion, query_id, NULL AS slot, NULL AS item
    FROM subqueries WHERE call_id IS NOT NULL
    UNION ALL
    SELECT call_id, benchmark, expansion, query_id, slot, item_id
    FROM verdicts WHERE call_id IS NOT NULL AND judge <> 'reused'
    UNION ALL
    SELECT call_id, benchmark, expansion, query_id, combo_id, NULL
    FROM combinations WHERE call_id IS NOT NULL
),
per_call AS (
    SELECT call_id, count(*) AS tasks FROM answered GROUP BY call_id
),
reused AS (
    SELECT call_id, count(*) AS n FROM verdicts
    WHERE judge = 'reused' AND call_id IS NOT NULL GROUP BY call_id
),
grouped AS (
    SELECT CASE WHEN $by_stage THEN c.stage END AS stage,
           CASE WHEN $by_judge THEN c.judge END AS judge,
           CASE WHEN $by_model THEN c.model END AS model,
           count(*) AS attempts,
           count(*) FILTER (WHERE c.status = 'ok') AS ok,
           count(*) FILTER (WHERE c.status IN ('error', 'malformed')) AS failed,
           count(*) FILTER (WHERE c.status = 'pending') AS pending,
           coalesce(sum(c.prompt_tokens), 0) AS tokens_in,
           coalesce(sum(c.completion_tokens), 0) AS tokens_out,
           sum(c.cost_usd) AS cost_usd,
           count(*) FILTER (WHERE c.cost_usd IS NULL AND c.prompt_tokens IS NOT NULL) AS unpriced,
           coalesce(sum(p.tasks), 0)
             + coalesce(sum(CAST(json_extract_string(c.parsed, '$.texts') AS BIGINT))
                        FILTER (WHERE c.stage = 'embed' AND c.status = 'ok'), 0) AS tasks,
           coalesce(sum(p.tasks - 1), 0) AS served,
           coalesce(sum(r.n), 0) AS reused
    FROM llm_calls c
    LEFT JOIN per_call p ON p.call_id = c.call_id
    LEFT JOIN reused r ON r.call_id = c.call_id
    GROUP BY ALL
)
SELECT * FROM grouped
ORDER BY list_position(['decompose', 'embed', 'verify', 'audit'], stage) NULLS LAST, judge NULLS LAST,
         model NULLS LAST;
