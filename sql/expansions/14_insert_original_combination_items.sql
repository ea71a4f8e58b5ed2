-- 14_insert_original_combination_items: the members of each combo 0 row, from qrels.
-- Reads: combinations, combination_items, qrels. Creates: the members of every combo_id 0 row of
-- the expansion that has none yet, copied from qrels (slot for slot).
-- Parameters: $benchmark, $expansion.
INSERT INTO combination_items (benchmark, expansion, query_id, combo_id, slot, item_id)
SELECT $benchmark, $expansion, q.query_id, 0, q.slot, q.item_id
FROM qrels AS q
JOIN combinations AS c
  ON c.benchmark = q.benchmark AND c.query_id = q.query_id
 AND c.expansion = $expansion AND c.combo_id = 0
WHERE q.benchmark = $benchmark
  AND NOT EXISTS (
    SELECT 1 FROM combination_items AS ci
    WHERE ci.benchmark = $benchmark AND ci.expansion = $expansion
      AND ci.query_id = q.query_id AND ci.combo_id = 0
  );
