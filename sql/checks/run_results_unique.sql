-- run_results_unique: a run ranks an item once per query: no (run_id, query_id, item_id)
-- appears twice in run_results. The table has no key (schema 067: its index cost most of a run's
-- import and could not leave memory), so this check holds the line the key held; the one writer
-- (toolex.runs.write) never writes a result twice.
-- Reads: run_results. Returns the repeated results and how often each appears.
SELECT run_id, query_id, item_id, count(*) AS times
FROM run_results
GROUP BY ALL
HAVING count(*) > 1
ORDER BY run_id, query_id, item_id;
