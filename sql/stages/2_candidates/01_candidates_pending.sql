-- 01_candidates_pending: sub-queries without a candidate list yet.
-- Reads: subqueries, queries, candidates. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]).
SELECT s.query_id, s.slot, s.text, s.reference
FROM subqueries s
WHERE s.benchmark = $benchmark AND s.expansion = $expansion
  AND list_contains($query_ids, s.query_id)
  AND NOT EXISTS (SELECT 1 FROM candidates c WHERE c.benchmark = s.benchmark
                  AND c.expansion = s.expansion AND c.query_id = s.query_id AND c.slot = s.slot)
ORDER BY s.query_id, s.slot;
