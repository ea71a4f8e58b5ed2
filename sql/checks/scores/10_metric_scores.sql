-- 10 check_metric_scores: every per-query score the metric checks look at, computed once.
-- Reads: runs, combinations, the metric macros (sql/metrics/). Creates: TEMP table
-- check_metric_scores (connection-local: nothing is written to the store, so it works on a
-- read-only one). toolex.checks creates it before the checks run; metrics_new_ge_old and
-- metrics_unit_range read it. Each used to score the whole store itself: the same metric table
-- twice, 91% of `toolex check`'s time on a 50k x 5k store.
-- Every run, every expansion stored plus 'default', the usual cut-offs (1, 5, 10, 20; deeper K
-- costs time and adds no new case).
CREATE OR REPLACE TEMP TABLE check_metric_scores AS
SELECT e.expansion, s.run_id, s.query_id, s.metric, s.k, s.old, s.new
FROM (SELECT expansion FROM combinations UNION SELECT 'default') AS e,
     LATERAL (SELECT * FROM metric_per_query((SELECT coalesce(list(run_id), []) FROM runs),
                                             [1, 5, 10, 20], e.expansion)) AS s;
