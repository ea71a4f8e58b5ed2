-- pipeline_combination_shape: every assembled combination fills each slot of its query exactly
-- once, one slot per ground-truth tool (slots 0..k-1, k = the query's qrels), and combo 0 is the
-- original (is_original, status 'valid', the ground-truth tool in every slot). The new metrics
-- and the exports read combinations as whole tool sets, so a missing or extra slot would score
-- wrongly. Imported combinations (judge 'import') may have another size and are exempt from the
-- slot count, not from the combo-0 rule.
-- Reads: combinations, combination_items, qrels. Returns the offending combinations.
WITH k AS (
    SELECT benchmark, query_id, count(*) AS k FROM qrels GROUP BY ALL
),
shape AS (
    SELECT c.benchmark, c.expansion, c.query_id, c.combo_id, c.is_original, c.status, c.judge,
           count(ci.slot) AS n_slots,
           count(DISTINCT ci.slot) AS n_distinct,
           coalesce(min(ci.slot), 0) AS lo,
           coalesce(max(ci.slot), -1) AS hi,
           count(*) FILTER (WHERE ci.item_id IS DISTINCT FROM q.item_id) AS off_gt
    FROM combinations c
    LEFT JOIN combination_items ci USING (benchmark, expansion, query_id, combo_id)
    LEFT JOIN qrels q
        ON q.benchmark = c.benchmark AND q.query_id = c.query_id AND q.slot = ci.slot
    GROUP BY ALL
)
SELECT s.benchmark, s.expansion, s.query_id, s.combo_id, s.status, s.n_slots, k.k
FROM shape s JOIN k USING (benchmark, query_id)
WHERE ((s.judge IS DISTINCT FROM 'import' OR s.combo_id = 0)
       AND (s.n_slots <> k.k OR s.n_distinct <> k.k OR s.lo <> 0 OR s.hi <> k.k - 1))
   OR (s.combo_id = 0) <> s.is_original
   OR (s.combo_id = 0 AND (s.status <> 'valid' OR s.off_gt > 0))
ORDER BY s.benchmark, s.expansion, s.query_id, s.combo_id;
