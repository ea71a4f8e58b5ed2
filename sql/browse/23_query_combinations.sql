-- 23_query_combinations: the query's combinations ranked by RRF, valid ones first, then those
-- rejected by the audit or the platform rule, or cut by the cap, with members in slot order;
-- `changed` lists only the members that differ from the slot's ground-truth tool ('=' keeps it).
-- Reads: combinations, combination_items. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_id.
SELECT c.combo_id, c.rrf_rank, c.rrf, c.is_original, c.status, c.reason, c.judge,
       string_agg(ci.item_id, ' + ' ORDER BY ci.slot) AS members,
       string_agg(CASE WHEN ci.item_id = g.item_id THEN '=' ELSE ci.item_id END, ' + '
                  ORDER BY ci.slot) AS changed
FROM combinations c
LEFT JOIN combination_items ci USING (benchmark, expansion, query_id, combo_id)
LEFT JOIN qrels g ON g.benchmark = ci.benchmark AND g.query_id = ci.query_id
                 AND g.slot = ci.slot
WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND c.query_id = $query_id
GROUP BY c.combo_id, c.rrf_rank, c.rrf, c.is_original, c.status, c.reason, c.judge
ORDER BY c.status <> 'valid', c.rrf_rank NULLS LAST, c.combo_id
