-- 21_item_members: one sampled combination slot by slot: the sub-query (the checklist line),
-- the candidate item and the reference (ground-truth) item. The judge's verdicts are not read:
-- reviewers label blind to the judge.
-- Reads: combination_items, subqueries, qrels. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_id, $combo_id.
SELECT ci.slot, s.text AS subquery, ci.item_id AS candidate, g.item_id AS reference
FROM combination_items ci
LEFT JOIN subqueries s USING (benchmark, expansion, query_id, slot)
LEFT JOIN qrels g ON g.benchmark = ci.benchmark AND g.query_id = ci.query_id AND g.slot = ci.slot
WHERE ci.benchmark = $benchmark AND ci.expansion = $expansion
  AND ci.query_id = $query_id AND ci.combo_id = $combo_id
ORDER BY ci.slot
