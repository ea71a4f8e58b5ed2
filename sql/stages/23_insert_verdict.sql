-- 23_insert_verdict: one verification outcome; a repeat is ignored.
-- Reads: nothing. Creates: a verdicts row. Parameters: $benchmark, $expansion, $query_id, $slot,
-- $item_id, $accepted, $reason, $judge, $call_id.
INSERT INTO verdicts (benchmark, expansion, query_id, slot, item_id, accepted, reason, judge, call_id)
VALUES ($benchmark, $expansion, $query_id, $slot, $item_id, $accepted, $reason, $judge, $call_id)
ON CONFLICT DO NOTHING;
