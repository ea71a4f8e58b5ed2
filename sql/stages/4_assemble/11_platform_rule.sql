-- 11_platform_rule: reject, before any audit call, combinations breaking a dependency.
-- Reads: dependencies, assembly_round_items (08: the round's members), items. Updates:
-- assembly_round.status of pending ones to 'rejected_platform' (each one an audit call saved).
-- Parameters: $benchmark, $expansion.
-- A dependent slot pair (an explicit edge, a hand-off the docs show, or with --platform-rule
-- strict a same-platform pair) must share a platform. An unknown (NULL) platform cannot be
-- checked and is not held against the combination; 17 records it as dependency_check 'unknown'.
UPDATE assembly_round c
SET status = 'rejected_platform', reason = v.reason, judge = 'platform_rule'
FROM (
    SELECT a.query_id, a.combo_id,
           min('slots ' || d.slot_a || ',' || d.slot_b || ' (' || d.reason || ') on different '
               || 'platforms: ' || pa.platform || ' vs ' || pb.platform) AS reason
    FROM dependencies d
    JOIN assembly_round_items a ON a.query_id = d.query_id AND a.slot = d.slot_a
    JOIN assembly_round_items b ON b.query_id = a.query_id AND b.combo_id = a.combo_id
         AND b.slot = d.slot_b
    JOIN items pa ON pa.benchmark = a.benchmark AND pa.item_id = a.item_id
    JOIN items pb ON pb.benchmark = b.benchmark AND pb.item_id = b.item_id
    WHERE d.benchmark = $benchmark AND d.expansion = $expansion
      AND pa.platform IS NOT NULL AND pb.platform IS NOT NULL AND pa.platform <> pb.platform
    GROUP BY a.query_id, a.combo_id
) v
WHERE c.query_id = v.query_id AND c.combo_id = v.combo_id AND c.status = 'pending';
