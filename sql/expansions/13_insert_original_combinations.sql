-- 13_insert_original_combinations: each imported query's original, as combo 0.
-- Reads: new_combinations (registered), combinations. Creates: the combo_id 0 row (the original
-- ground truth, status 'valid', is_original) for each imported query that lacks one.
-- Parameters: $benchmark, $expansion.
INSERT INTO combinations (benchmark, expansion, query_id, combo_id, is_original, status, reason, judge)
SELECT DISTINCT $benchmark, $expansion, n.query_id, 0, true, 'valid', 'original ground truth', 'import'
FROM new_combinations AS n
WHERE NOT EXISTS (
    SELECT 1 FROM combinations AS c
    WHERE c.benchmark = $benchmark AND c.expansion = $expansion
      AND c.query_id = n.query_id AND c.combo_id = 0
);
