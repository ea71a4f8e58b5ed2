-- metrics_unit_range: every per-query NDCG, Recall and Comp score lies in [0, 1], and Comp is
-- exactly 0 or 1. Guards the ideal-DCG and relevant-count denominators (a wrong IDCG or a
-- double-counted item would push a score above 1).
-- Reads: check_metric_scores (sql/checks/scores/: every run and expansion, K 1, 5, 10, 20,
-- scored once for all the metric checks). Returns the out-of-range scores.
SELECT expansion, run_id, query_id, metric, k, old, new
FROM check_metric_scores
WHERE old < 0 OR old > 1 OR new < 0 OR new > 1
   OR (metric = 'comp' AND (old NOT IN (0, 1) OR new NOT IN (0, 1)))
ORDER BY expansion, run_id, query_id, metric, k;
