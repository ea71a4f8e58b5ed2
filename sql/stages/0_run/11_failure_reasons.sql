-- 11_failure_reasons: the most common errors of one stage's failed tasks among some queries,
-- for the message of a stage that produced no outcome (`toolex expand` then exits non-zero and
-- says why).
-- Reads: stage_failures. Creates: nothing.
-- Parameters: $benchmark, $expansion, $stage, $query_ids (the run's queries), $top (how many
-- distinct errors). Task keys are "<query_id>" or "<query_id>/..." (see 05_failed_queries).
SELECT f.error, count(DISTINCT f.task_key) AS n
FROM stage_failures AS f
JOIN unnest($query_ids::VARCHAR[]) AS q(query_id)
  ON f.task_key = q.query_id OR starts_with(f.task_key, q.query_id || '/')
WHERE f.benchmark = $benchmark AND f.expansion = $expansion AND f.stage = $stage
GROUP BY f.error
ORDER BY n DESC, f.error
LIMIT $top;
