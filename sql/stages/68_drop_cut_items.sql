-- 68_drop_cut_items: drop the members of the combinations 35 dropped.
-- Reads: stage_rows (the batch of 35: query_id), combinations. Deletes: combination_items rows.
-- Parameters: $benchmark, $expansion.
DELETE FROM combination_items ci
WHERE ci.benchmark = $benchmark AND ci.expansion = $expansion
  AND ci.query_id IN (SELECT query_id FROM stage_rows)
  AND NOT EXISTS (SELECT 1 FROM combinations c WHERE c.benchmark = ci.benchmark
                  AND c.expansion = ci.expansion AND c.query_id = ci.query_id
                  AND c.combo_id = ci.combo_id);
