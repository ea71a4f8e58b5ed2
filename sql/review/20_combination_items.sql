-- 20_combination_items: what a reviewer sees of each item of a combination-level sample, in
-- position order: the query, its instruction, the candidate and the reference combinations and
-- the stratum (category x number of tools). Nothing of the judges or the ranking (audit reason,
-- RRF rank) is returned, so no view can show it; the labels a role may see come from
-- 24_role_labels.
-- Reads: review_samples, queries, combination_items, qrels. Creates: nothing.
-- Parameters: $sample_id.
SELECT s.position, s.benchmark, s.expansion, s.query_id, s.combo_id, s.stratum,
       q.text AS query, q.instruction,
       (SELECT string_agg(ci.item_id, ' + ' ORDER BY ci.slot) FROM combination_items ci
        WHERE ci.benchmark = s.benchmark AND ci.expansion = s.expansion
          AND ci.query_id = s.query_id AND ci.combo_id = s.combo_id) AS candidate,
       (SELECT string_agg(g.item_id, ' + ' ORDER BY g.slot) FROM qrels g
        WHERE g.benchmark = s.benchmark AND g.query_id = s.query_id) AS reference
FROM review_samples s
JOIN queries q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
WHERE s.sample_id = $sample_id
ORDER BY s.position
