-- 35_audit_cap: keep the top $audit_cap pending combinations per query (by RRF) for the audit;
-- mark the rest 'cut' (counted, never audited).
-- Reads: combinations. Updates: combinations.status. Parameters: $benchmark, $expansion,
-- $query_ids (VARCHAR[]), $audit_cap (INTEGER >= 0).
UPDATE combinations c
SET status = 'cut', reason = 'beyond the audit cap of ' || $audit_cap || ' per query'
FROM (
    SELECT query_id, combo_id,
           row_number() OVER (PARTITION BY query_id ORDER BY rrf_rank) AS pos
    FROM combinations
    WHERE benchmark = $benchmark AND expansion = $expansion AND status = 'pending'
      AND list_contains($query_ids, query_id)
) p
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.query_id = p.query_id
  AND c.combo_id = p.combo_id AND p.pos > $audit_cap;
