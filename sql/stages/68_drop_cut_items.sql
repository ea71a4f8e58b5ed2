-- 68_drop_cut_items: drop the members of the combinations 35 dropped.
-- Reads: stage_rows (the batch of 35: query_id), assembled_combinations (71). Deletes:
-- assembled_items rows (71). Parameters: none.
DELETE FROM assembled_items ci
WHERE ci.query_id IN (SELECT query_id FROM stage_rows)
  AND NOT EXISTS (SELECT 1 FROM assembled_combinations c WHERE c.query_id = ci.query_id
                  AND c.combo_id = ci.combo_id);
