-- 61_dependency_check: record what the deterministic dependency check could decide for each
-- combination just assembled: 'failed' (rejected by 34 or 60), 'none' (the query has no known
-- dependency), 'unknown' (a dependent pair with a replaced member whose platform, or its
-- counterpart's, is unknown, or whose docs are silent on the value an explicit edge hands
-- over), else 'passed'. A pair whose members are both the original's is the annotated plan.
-- Reads: combinations, combination_items, dependencies, subqueries, items, edge_fit (registered:
-- see 60). Updates: combinations.dependency_check. Parameters: $benchmark, $expansion,
-- $query_ids (VARCHAR[]).
UPDATE combinations c
SET dependency_check = x.dependency_check
FROM (
    SELECT c.query_id, c.combo_id,
           CASE WHEN c.status = 'rejected_platform' THEN 'failed'
                WHEN count(d.slot_a) = 0 THEN 'none'
                WHEN bool_or(coalesce(p.unknown, false)) THEN 'unknown'
                ELSE 'passed' END AS dependency_check
    FROM combinations c
    LEFT JOIN dependencies d ON d.benchmark = c.benchmark AND d.expansion = c.expansion
         AND d.query_id = c.query_id
    LEFT JOIN LATERAL (
        SELECT (a.item_id <> sa.reference OR b.item_id <> sb.reference)
               AND (ia.platform IS NULL OR ib.platform IS NULL
                    OR EXISTS (SELECT 1 FROM edge_fit f WHERE f.query_id = c.query_id
                               AND f.fit = 'unknown'
                               AND ((f.slot = d.slot_a AND f.item_id = a.item_id)
                                    OR (f.slot = d.slot_b AND f.item_id = b.item_id))))
               AS unknown
        FROM combination_items a
        JOIN combination_items b ON b.benchmark = a.benchmark AND b.expansion = a.expansion
             AND b.query_id = a.query_id AND b.combo_id = a.combo_id AND b.slot = d.slot_b
        JOIN subqueries sa ON sa.benchmark = a.benchmark AND sa.expansion = a.expansion
             AND sa.query_id = a.query_id AND sa.slot = a.slot
        JOIN subqueries sb ON sb.benchmark = b.benchmark AND sb.expansion = b.expansion
             AND sb.query_id = b.query_id AND sb.slot = b.slot
        JOIN items ia ON ia.benchmark = a.benchmark AND ia.item_id = a.item_id
        JOIN items ib ON ib.benchmark = b.benchmark AND ib.item_id = b.item_id
        WHERE a.benchmark = c.benchmark AND a.expansion = c.expansion
          AND a.query_id = c.query_id AND a.combo_id = c.combo_id AND a.slot = d.slot_a
    ) p ON true
    WHERE c.benchmark = $benchmark AND c.expansion = $expansion
      AND list_contains($query_ids, c.query_id) AND c.rrf IS NOT NULL
      AND c.dependency_check IS NULL
    GROUP BY c.query_id, c.combo_id, c.status
) x
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.query_id = x.query_id
  AND c.combo_id = x.combo_id;
