-- metrics_new_ge_old: for every run, expansion, metric, K and query, the expanded score is at
-- least the original one (new >= old), because the original combination is always valid.
-- Reads: runs, combinations, the metric macros (sql/metrics/). Returns the violating scores.
-- K covers the usual cut-offs (1, 5, 10, 20; deeper K costs time and adds no new case); expansions are every one stored, plus 'default'.
SELECT e.expansion, s.run_id, s.query_id, s.metric, s.k, s.old, s.new
FROM (SELECT expansion FROM combinations UNION SELECT 'default') AS e,
     LATERAL (SELECT * FROM metric_per_query((SELECT coalesce(list(run_id), []) FROM runs),
                                             [1, 5, 10, 20], e.expansion)) AS s
WHERE s.old IS NULL OR s.new IS NULL OR s.new < s.old
ORDER BY e.expansion, s.run_id, s.query_id, s.metric, s.k;
