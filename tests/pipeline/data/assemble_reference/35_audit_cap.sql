-- 35_audit_cap: keep the best pending combinations per query (by RRF) for the audit; mark the
-- rest 'cut' (counted, never audited, never relevant in `export qrels` unless asked).
-- Reads: combinations. Updates: combinations.status, reason, judge ('audit_cap' | 'safety_limit').
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]), $audit_cap (INTEGER >= 0, or NULL:
-- audit every combination, as the paper does), $safety_limit (INTEGER: with no cap, a query is
-- audited up to this many and the rest cut; reported by `expand` and `stats`).
UPDATE combinations c
SET status = 'cut',
    reason = CASE WHEN CAST($audit_cap AS INTEGER) IS NULL
                  THEN 'beyond the safety limit of ' || $safety_limit || ' audits per query'
                  ELSE 'beyond the audit cap of ' || $audit_cap || ' per query' END,
    judge = CASE WHEN CAST($audit_cap AS INTEGER) IS NULL THEN 'safety_limit' ELSE 'audit_cap' END
FROM (
    SELECT query_id, combo_id,
           row_number() OVER (PARTITION BY query_id ORDER BY rrf_rank) AS pos
    FROM combinations
    WHERE benchmark = $benchmark AND expansion = $expansion AND status = 'pending'
      AND list_contains($query_ids, query_id)
) p
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.query_id = p.query_id
  AND c.combo_id = p.combo_id
  AND p.pos > coalesce(CAST($audit_cap AS INTEGER), CAST($safety_limit AS INTEGER));
