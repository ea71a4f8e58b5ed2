-- 15 combination_items: the members of the combinations of 14.
-- Reads: combination_items, combinations, runs.
-- Parameters: $run_ids VARCHAR[], $expansion VARCHAR (NULL: none).
-- Returns: benchmark, expansion, query_id, combo_id, slot, item_id.
SELECT ci.benchmark, ci.expansion, ci.query_id, ci.combo_id, ci.slot, ci.item_id
FROM combination_items AS ci
JOIN combinations AS c
  ON c.benchmark = ci.benchmark AND c.expansion = ci.expansion
 AND c.query_id = ci.query_id AND c.combo_id = ci.combo_id
WHERE c.expansion = $expansion::VARCHAR AND c.status = 'valid'
  AND c.benchmark IN (SELECT benchmark FROM runs WHERE list_contains($run_ids::VARCHAR[], run_id));
