-- 33_insert_combination_items: one row per member of each stored combination (slot = position).
-- Reads: ranked_products (31). Creates: combination_items rows. Parameters: $benchmark, $expansion.
-- The two unnests run in lockstep, pairing each position with its item.
INSERT INTO combination_items (benchmark, expansion, query_id, combo_id, slot, item_id)
SELECT $benchmark, $expansion, query_id, combo_id,
       unnest(range(len(items)))::INTEGER, unnest(items)
FROM ranked_products r
-- (schema 065 dropped the table's key, so its ON CONFLICT DO NOTHING became this anti-join: the
-- same rows, a combination's members written once)
WHERE NOT EXISTS (SELECT 1 FROM combination_items ci
                  WHERE ci.benchmark = $benchmark AND ci.expansion = $expansion
                    AND ci.query_id = r.query_id AND ci.combo_id = r.combo_id);
