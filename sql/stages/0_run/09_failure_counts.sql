-- 09_failure_counts: failed tasks per stage still waiting for --retry-failed.
-- Reads: stage_failures. Creates: nothing. Parameters: $benchmark, $expansion.
SELECT stage, count(*) AS failed, sum(attempts) AS attempts
FROM stage_failures
WHERE benchmark = $benchmark AND expansion = $expansion
GROUP BY stage ORDER BY stage;
