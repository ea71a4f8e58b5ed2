-- 05_failed_queries: every query of an expansion with a failed task, and why (for `toolex stats`
-- and the report): a failed decomposition leaves the query with new = old; a failed verdict or
-- audit leaves out the candidates or combinations it concerned until `expand --retry-failed`.
-- Reads: queries, stage_failures. Creates: nothing.
-- Parameters: $benchmark, $expansion.
-- Returns: query_id, stage, failed (tasks of that stage that failed for the query), reason
-- (the first failure's error, by task key), effect.
-- Task keys are "<query_id>" (decompose), "<query_id>/<slot>/<item_id>" (verify) and
-- "<query_id>/<combo_id>" (audit).
SELECT q.query_id, f.stage,
       count(*) AS failed,
       arg_min(f.error, f.task_key) AS reason,
       CASE f.stage WHEN 'decompose' THEN 'no sub-queries: new = old'
                    WHEN 'verify' THEN 'candidates left unjudged'
                    ELSE 'combinations left unaudited' END AS effect
FROM queries AS q
JOIN stage_failures AS f
  ON f.benchmark = q.benchmark AND f.expansion = $expansion
 AND (f.task_key = q.query_id OR starts_with(f.task_key, q.query_id || '/'))
WHERE q.benchmark = $benchmark
GROUP BY q.query_id, f.stage
ORDER BY list_position(['decompose', 'verify', 'audit'], f.stage), q.query_id
