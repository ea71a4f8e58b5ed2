-- metrics_unit_range: every per-query NDCG, Recall and Comp score lies in [0, 1], and Comp is
-- exactly 0 or 1. Guards the ideal-DCG and relevant-count denominators (a wrong IDCG or a
-- double-counted item would push a score above 1).
-- Reads: runs, combinations, the metric macros (sql/metrics/). Returns the out-of-range scores.
SELECT e.expansion, s.run_id, s.query_id, s.metric, s.k, s.old, s.new
FROM (SELECT expansion FROM combinations UNION SELECT 'default') AS e,
     LATERAL (SELECT * FROM metric_per_query((SELECT coalesce(list(run_id), []) FROM runs),
                                             [1, 5, 10, 20], e.expansion)) AS s
WHERE s.old < 0 OR s.old > 1 OR s.new < 0 OR s.new > 1
   OR (s.metric = 'comp' AND (s.old NOT IN (0, 1) OR s.new NOT IN (0, 1)))
ORDER BY e.expansion, s.run_id, s.query_id, s.metric, s.k;
