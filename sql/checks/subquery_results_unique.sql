-- subquery_results_unique: a sub-query's list ranks an item once: no (run_id, query_id,
-- slot, item_id) appears twice in subquery_results. The table has no key (schema 067, as
-- run_results), so this check holds the line the key held.
-- Reads: subquery_results. Returns the repeated results and how often each appears.
SELECT run_id, query_id, slot, item_id, count(*) AS times
FROM subquery_results
GROUP BY ALL
HAVING count(*) > 1
ORDER BY run_id, query_id, slot, item_id;
