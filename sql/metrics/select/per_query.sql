-- per_query: old and new per (run, query, metric, K). Reads: metric_per_query (070).
-- Parameters: $run_ids VARCHAR[], $ks INTEGER[], $expansion VARCHAR,
-- $metrics VARCHAR[] (the metric families wanted, e.g. ['ndcg', 'recall', 'comp']).
-- Metrics sort by array_position (DuckDB's list_position under the name Spark knows too).
SELECT run_id, query_id, task, category, has_results, metric, k, old, new
FROM metric_per_query($run_ids::VARCHAR[], $ks::INTEGER[], $expansion::VARCHAR)
WHERE list_contains($metrics::VARCHAR[], metric)
ORDER BY run_id, query_id, k, array_position(['ndcg', 'recall', 'comp', 'p', 'rr', 'ap'], metric);
