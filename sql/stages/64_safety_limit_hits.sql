-- 64_safety_limit_hits: queries whose uncapped audit stopped at the per-query safety limit, and
-- how many of their combinations it cut (so a limited run never passes for a complete one).
-- Reads: combinations. Creates: nothing. Parameters: $benchmark, $expansion, $query_ids
-- (VARCHAR[] or NULL = every query).
SELECT query_id, count(*) AS cut
FROM combinations
WHERE benchmark = $benchmark AND expansion = $expansion AND status = 'cut'
  AND judge = 'safety_limit'
  AND ($query_ids IS NULL OR list_contains($query_ids, query_id))
GROUP BY query_id
ORDER BY cut DESC, query_id;
