-- 04_insert_verdict: verification outcomes; a repeat is ignored.
-- Reads: stage_rows (a registered batch: query_id, slot, item_id, accepted, reason, judge,
-- call_id, confidence). Creates: verdicts rows. Parameters: $benchmark, $expansion.
INSERT INTO verdicts (benchmark, expansion, query_id, slot, item_id, accepted, reason, judge, call_id,
                      confidence)
SELECT $benchmark, $expansion, query_id, slot, item_id, accepted, reason, judge, call_id, confidence
FROM stage_rows
ON CONFLICT DO NOTHING;
