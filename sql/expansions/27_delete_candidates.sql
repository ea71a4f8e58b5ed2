-- 27_delete_candidates: a candidates import's --replace swap.
-- Reads: new_candidate_keys (registered: query_id, slot). Deletes: the expansion's candidates of
-- every sub-query the import covers. Parameters: $benchmark, $expansion.
DELETE FROM candidates
WHERE benchmark = $benchmark AND expansion = $expansion
  AND (query_id, slot) IN (SELECT (query_id, slot) FROM new_candidate_keys);
