-- one_query: old and new of one query for several runs, per metric and K (the TUI's query page).
-- Reads: metric_per_query (070). Parameters: $run_ids VARCHAR[], $ks INTEGER[],
-- $expansion VARCHAR, $query_id VARCHAR, $metrics VARCHAR[].
-- The filter on query_id reaches into the macros (DuckDB pushes it through their joins and
-- groupings), so one query costs milliseconds where the whole benchmark costs a second.
SELECT run_id, query_id, metric, k, old, new
FROM metric_per_query($run_ids::VARCHAR[], $ks::INTEGER[], $expansion::VARCHAR)
WHERE query_id = $query_id AND list_contains($metrics::VARCHAR[], metric)
ORDER BY run_id, k, array_position(['ndcg', 'recall', 'comp', 'p', 'rr', 'ap'], metric);
