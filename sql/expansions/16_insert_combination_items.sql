-- 16_insert_combination_items: the members of the imported combinations.
-- Reads: new_combination_items (registered: query_id, combo_id, slot, item_id).
-- Creates: the members of the imported combinations. Parameters: $benchmark, $expansion.
INSERT INTO combination_items (benchmark, expansion, query_id, combo_id, slot, item_id)
SELECT $benchmark, $expansion, query_id, combo_id, slot, item_id
FROM new_combination_items
WHERE combo_id <> 0;
