-- summary: macro averages per group and 'all'. Reads: metric_summary (100).
-- Parameters: $run_ids VARCHAR[], $ks INTEGER[], $expansion VARCHAR, $by 'category' | 'task'.
SELECT run_id, grp, metric, k, old, new, gain, n_queries, n_no_results
FROM metric_summary($run_ids::VARCHAR[], $ks::INTEGER[], $expansion::VARCHAR, $by::VARCHAR)
ORDER BY run_id, grp = 'all', grp, k, list_position(['ndcg', 'recall', 'comp'], metric);
