-- per_query: old and new per (run, query, metric, K). Reads: metric_per_query (090).
-- Parameters: $run_ids VARCHAR[], $ks INTEGER[], $expansion VARCHAR.
SELECT run_id, query_id, task, category, has_results, metric, k, old, new
FROM metric_per_query($run_ids::VARCHAR[], $ks::INTEGER[], $expansion::VARCHAR)
ORDER BY run_id, query_id, k, list_position(['ndcg', 'recall', 'comp'], metric);
