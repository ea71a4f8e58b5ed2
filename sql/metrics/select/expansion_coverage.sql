-- expansion_coverage: per run, how many of its benchmark's queries have at least one valid
-- expanded combination in the expansion (0 means new = old for that run).
-- Reads: runs, combinations. Parameters: $run_ids VARCHAR[], $expansion VARCHAR.
SELECT r.run_id, r.benchmark, count(DISTINCT c.query_id) AS n_expanded
FROM runs AS r
LEFT JOIN combinations AS c
  ON c.benchmark = r.benchmark AND c.expansion = $expansion
 AND c.status = 'valid' AND c.combo_id <> 0 AND NOT c.is_original
WHERE list_contains($run_ids::VARCHAR[], r.run_id)
GROUP BY r.run_id, r.benchmark
ORDER BY r.run_id;
