-- 14_drop_cut_items: drop the members of the combinations 13 dropped from the batch.
-- Reads: assembly_round (08). Deletes: assembly_round_items rows (08). Parameters: none.
DELETE FROM assembly_round_items ci
WHERE NOT EXISTS (SELECT 1 FROM assembly_round c WHERE c.query_id = ci.query_id
                  AND c.combo_id = ci.combo_id);
