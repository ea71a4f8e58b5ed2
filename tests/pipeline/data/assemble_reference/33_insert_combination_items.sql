-- 33_insert_combination_items: one row per member of each stored combination (slot = position).
-- Reads: ranked_products (31). Creates: combination_items rows. Parameters: $benchmark, $expansion.
-- The two unnests run in lockstep, pairing each position with its item.
INSERT INTO combination_items (benchmark, expansion, query_id, combo_id, slot, item_id)
SELECT $benchmark, $expansion, query_id, combo_id,
       unnest(range(len(items)))::INTEGER, unnest(items)
FROM ranked_products
ON CONFLICT DO NOTHING;
