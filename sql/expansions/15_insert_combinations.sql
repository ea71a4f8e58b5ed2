-- 15_insert_combinations: the combinations an import file holds.
-- Reads: new_combinations (registered: query_id, combo_id). Creates: imported combinations,
-- status 'valid', judge 'import'. Parameters: $benchmark, $expansion.
INSERT INTO combinations (benchmark, expansion, query_id, combo_id, is_original, status, reason, judge)
SELECT $benchmark, $expansion, query_id, combo_id, false, 'valid', 'imported', 'import'
FROM new_combinations
WHERE combo_id <> 0;
