-- 32_set_audit_status: record audit outcomes on pending combinations
-- (toolex.expansions.set_audit_statuses).
-- Reads: stage_rows (a registered batch of AuditStatus: query_id, combo_id, status
-- ('valid'|'rejected_audit'), reason, judge, call_id). Updates: combinations rows.
-- Parameters: $benchmark, $expansion.
UPDATE combinations c
SET status = r.status, reason = r.reason, judge = r.judge, call_id = r.call_id
FROM stage_rows r
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.query_id = r.query_id
  AND c.combo_id = r.combo_id AND c.status = 'pending';
