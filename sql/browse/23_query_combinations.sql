-- 23_query_combinations: the query's combinations ranked by RRF, valid ones first, then those
-- rejected by the audit or the platform rule, or cut by the cap, with members in slot order:
-- each member's id, name and whether it is the slot's ground-truth tool (`is_gt`).
-- Reads: combinations, combination_items, qrels, items. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_id.
SELECT c.combo_id, c.rrf_rank, c.rrf, c.is_original, c.status, c.reason, c.judge,
       list({'item_id': ci.item_id, 'name': i.name, 'is_gt': ci.item_id = g.item_id}
            ORDER BY ci.slot) FILTER (WHERE ci.item_id IS NOT NULL) AS members
FROM combinations c
LEFT JOIN combination_items ci USING (benchmark, expansion, query_id, combo_id)
LEFT JOIN qrels g ON g.benchmark = ci.benchmark AND g.query_id = ci.query_id
                 AND g.slot = ci.slot
LEFT JOIN items i ON i.benchmark = ci.benchmark AND i.item_id = ci.item_id
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.query_id = $query_id
GROUP BY c.combo_id, c.rrf_rank, c.rrf, c.is_original, c.status, c.reason, c.judge
ORDER BY c.status <> 'valid', c.rrf_rank NULLS LAST, c.combo_id
