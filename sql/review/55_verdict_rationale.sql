-- 55_verdict_rationale: the judge's rationale for one sampled verdict, shown to reviewers only
-- when the sample's protocol says so (review_protocols.show_rationale).
-- Reads: verdicts. Creates: nothing (accepted, reason, judge, confidence; no row when the
-- candidate was never judged). Parameters: $benchmark, $expansion, $query_id, $slot, $item_id.
SELECT accepted, reason, judge, confidence
FROM verdicts
WHERE benchmark = $benchmark AND expansion = $expansion AND query_id = $query_id
  AND slot = $slot AND item_id = $item_id;
