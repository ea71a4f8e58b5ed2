-- 17_dependency_check: record what the deterministic dependency check could decide for each
-- combination just assembled: 'none' (the query has no known dependency), 'unknown' (a
-- dependent pair with a replaced member whose platform, or its counterpart's, is unknown, or
-- whose docs are silent on the value an explicit edge hands over), else 'passed'. A pair whose
-- members are both the original's is the annotated plan. The combinations 11 and 12 reject
-- ('failed' in stores assembled before schema 066) are counted, never staged here (15).
-- Reads: assembled_combinations, assembled_items (08: the group being assembled, originals
-- included), dependencies, subqueries, items, edge_fit (registered: see 12). Updates:
-- assembled_combinations.dependency_check. Parameters: none (the rows carry their benchmark).
UPDATE assembled_combinations c
SET dependency_check = x.dependency_check
FROM (
    SELECT c.query_id, c.combo_id,
           CASE WHEN count(d.slot_a) = 0 THEN 'none'
                WHEN bool_or(coalesce(p.unknown, false)) THEN 'unknown'
                ELSE 'passed' END AS dependency_check
    FROM assembled_combinations c
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
        FROM assembled_items a
        JOIN assembled_items b ON b.query_id = a.query_id AND b.combo_id = a.combo_id
             AND b.slot = d.slot_b
        JOIN subqueries sa ON sa.benchmark = a.benchmark AND sa.expansion = a.expansion
             AND sa.query_id = a.query_id AND sa.slot = a.slot
        JOIN subqueries sb ON sb.benchmark = b.benchmark AND sb.expansion = b.expansion
             AND sb.query_id = b.query_id AND sb.slot = b.slot
        JOIN items ia ON ia.benchmark = a.benchmark AND ia.item_id = a.item_id
        JOIN items ib ON ib.benchmark = b.benchmark AND ib.item_id = b.item_id
        WHERE a.query_id = c.query_id AND a.combo_id = c.combo_id AND a.slot = d.slot_a
    ) p ON true
    WHERE c.rrf IS NOT NULL AND c.dependency_check IS NULL
    GROUP BY c.query_id, c.combo_id
) x
WHERE c.query_id = x.query_id AND c.combo_id = x.combo_id;
