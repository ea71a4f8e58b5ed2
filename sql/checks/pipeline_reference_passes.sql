-- pipeline_reference_passes: once a slot has verdicts, its reference (the ground-truth tool)
-- has one and it is accepted: the method's invariant that the original tool is always valid, so
-- the original combination can always be assembled.
-- Reads: subqueries, verdicts. Returns the slots whose reference is missing or rejected.
SELECT s.benchmark, s.expansion, s.query_id, s.slot, s.reference, v.accepted, v.judge
FROM subqueries s
LEFT JOIN verdicts v
    ON v.benchmark = s.benchmark AND v.expansion = s.expansion AND v.query_id = s.query_id
   AND v.slot = s.slot AND v.item_id = s.reference
WHERE EXISTS (
        SELECT 1 FROM verdicts w
        WHERE w.benchmark = s.benchmark AND w.expansion = s.expansion
          AND w.query_id = s.query_id AND w.slot = s.slot)
  AND (v.accepted IS NULL OR NOT v.accepted)
ORDER BY s.benchmark, s.expansion, s.query_id, s.slot;
