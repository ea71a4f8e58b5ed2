-- metrics_new_ge_old: for every run, expansion, metric, K and query, the expanded score is at
-- least the original one (new >= old), because the original combination is always valid.
-- Reads: check_metric_scores (sql/checks/scores/: every run and expansion, K 1, 5, 10, 20,
-- scored once for all the metric checks). Returns the violating scores.
SELECT expansion, run_id, query_id, metric, k, old, new
FROM check_metric_scores
WHERE old IS NULL OR new IS NULL OR new < old
ORDER BY expansion, run_id, query_id, metric, k;
