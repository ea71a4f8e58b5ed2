-- 05_count_accepted: accepted candidates beyond the references.
-- Reads: verdicts. Creates: nothing. Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]).
SELECT count(*) AS n FROM verdicts
WHERE benchmark = $benchmark AND expansion = $expansion AND accepted AND judge <> 'reference'
  AND list_contains($query_ids, query_id);
