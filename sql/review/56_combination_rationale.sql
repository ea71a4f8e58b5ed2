-- 56_combination_rationale: the audit's rationale for one sampled combination and the
-- verifier's for each of its replaced members, shown to reviewers only when the sample's
-- protocol says so (review_protocols.show_rationale).
-- Reads: combinations, combination_items, subqueries, verdicts. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_id, $combo_id.
-- One row per member (slot order): the combination's status, reason and judge (repeated), and
-- for a member other than its slot's reference the verdict that accepted it.
SELECT c.status, c.reason AS audit_reason, c.judge AS audit_judge, ci.slot, ci.item_id,
       ci.item_id = s.reference AS is_reference, v.reason AS verify_reason,
       v.judge AS verify_judge, v.confidence
FROM combinations c
JOIN combination_items ci USING (benchmark, expansion, query_id, combo_id)
LEFT JOIN subqueries s ON s.benchmark = ci.benchmark AND s.expansion = ci.expansion
     AND s.query_id = ci.query_id AND s.slot = ci.slot
LEFT JOIN verdicts v ON v.benchmark = ci.benchmark AND v.expansion = ci.expansion
     AND v.query_id = ci.query_id AND v.slot = ci.slot AND v.item_id = ci.item_id
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.query_id = $query_id
  AND c.combo_id = $combo_id
ORDER BY ci.slot;
