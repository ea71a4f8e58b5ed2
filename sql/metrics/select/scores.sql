-- scores: one metric family in the one row shape (run_id, query_id, metric, k, value).
-- Reads: the macro metric_new (metrics/090_metric_new.sql), which scores the old qrels when
-- $expansion is NULL. Parameters: $run_ids VARCHAR[], $ks INTEGER[], $expansion VARCHAR
-- (NULL = old), $metric ('ndcg' | 'recall' | 'comp' | 'p' | 'rr' | 'ap').
SELECT run_id, query_id, metric, k, value
FROM metric_new($run_ids::VARCHAR[], $ks::INTEGER[], $expansion::VARCHAR)
WHERE metric = $metric
ORDER BY run_id, query_id, k;
