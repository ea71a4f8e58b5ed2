-- summary: macro averages per group and 'all'. Reads: metric_summary (100).
-- Parameters: $run_ids VARCHAR[], $ks INTEGER[], $expansion VARCHAR, $by 'category' | 'task',
-- $metrics VARCHAR[] (the metric families wanted, e.g. ['ndcg', 'recall', 'comp']).
-- Metrics sort by array_position (DuckDB's list_position under the name Spark knows too).
SELECT run_id, grp, metric, k, old, new, gain, n_queries, n_no_results
FROM metric_summary($run_ids::VARCHAR[], $ks::INTEGER[], $expansion::VARCHAR, $by::VARCHAR)
WHERE list_contains($metrics::VARCHAR[], metric)
ORDER BY run_id, grp = 'all', grp, k,
         array_position(['ndcg', 'recall', 'comp', 'p', 'rr', 'ap'], metric);
