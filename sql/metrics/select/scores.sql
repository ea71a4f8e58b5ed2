-- scores: one metric family in the one row shape (run_id, query_id, metric, k, value).
-- Reads: metric_old (070) or metric_new (080). Parameters: $run_ids VARCHAR[], $ks INTEGER[],
-- $expansion VARCHAR (NULL = old), $metric ('ndcg' | 'recall' | 'comp' | 'p' | 'rr' | 'ap').
SELECT run_id, query_id, metric, k, value
FROM metric_new($run_ids::VARCHAR[], $ks::INTEGER[], $expansion::VARCHAR)
WHERE metric = $metric
ORDER BY run_id, query_id, k;
