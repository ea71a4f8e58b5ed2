-- 10_insert_combination_items: one row per member of each combination of a batch (slot = position).
-- Reads: stage_rows (the batch of 09). Creates: assembly_round_items rows (08; expansions/31 stores
-- them in combination_items). Parameters: $benchmark, $expansion.
-- The two unnests run in lockstep, pairing each position with its item.
INSERT INTO assembly_round_items (benchmark, expansion, query_id, combo_id, slot, item_id)
SELECT $benchmark, $expansion, query_id, combo_id,
       unnest(range(len(items)))::INTEGER, unnest(items)
FROM stage_rows;
