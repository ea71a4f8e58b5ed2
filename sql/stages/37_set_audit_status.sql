-- 37_set_audit_status: record an audit outcome on a pending combination.
-- Reads: nothing. Updates: one combinations row. Parameters: $benchmark, $expansion, $query_id,
-- $combo_id, $status ('valid' | 'rejected_audit'), $reason, $judge, $call_id.
UPDATE combinations
SET status = $status, reason = $reason, judge = $judge, call_id = $call_id
WHERE benchmark = $benchmark AND expansion = $expansion AND query_id = $query_id
  AND combo_id = $combo_id AND status = 'pending';
