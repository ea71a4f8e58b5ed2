-- 68_drop_cut_items: drop the members of the combinations 35 dropped from the batch.
-- Reads: assembly_round (71). Deletes: assembly_round_items rows (71). Parameters: none.
DELETE FROM assembly_round_items ci
WHERE NOT EXISTS (SELECT 1 FROM assembly_round c WHERE c.query_id = ci.query_id
                  AND c.combo_id = ci.combo_id);
