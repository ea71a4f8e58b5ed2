-- 020 metric_combos(p_expansion): the valid tool combinations of every query, one row per item.
-- Reads: qrels, combinations, combination_items. Creates: TEMP table macro metric_combos.
-- Parameters: p_expansion VARCHAR (expansion name; NULL = original ground truth only).
-- Returns: benchmark, query_id, combo_id, item_id, relevance.
-- combo_id 0 is always the original ground truth, read from qrels with its graded labels (so
-- "old" is exactly trec_eval over qrels). Expanded combinations are those with status 'valid' of
-- the expansion; an expanded item inherits the relevance of the ground-truth item of its slot
-- (qrels.slot), 1 when that slot has no label. The stored copy of the original (combo 0 /
-- is_original) is skipped because qrels is its authoritative form. An item filling two slots of
-- one combination counts once, with its highest relevance (as a qrels dict would hold it).
CREATE OR REPLACE TEMP MACRO metric_combos(p_expansion) AS TABLE
SELECT benchmark, query_id, 0 AS combo_id, item_id, relevance
FROM qrels
UNION ALL
SELECT ci.benchmark, ci.query_id, ci.combo_id, ci.item_id,
       max(coalesce(g.relevance, 1)) AS relevance
FROM combinations AS c
JOIN combination_items AS ci
  ON ci.benchmark = c.benchmark AND ci.expansion = c.expansion
 AND ci.query_id = c.query_id AND ci.combo_id = c.combo_id
LEFT JOIN (SELECT benchmark, query_id, slot, max(relevance) AS relevance
           FROM qrels GROUP BY ALL) AS g
  ON g.benchmark = ci.benchmark AND g.query_id = ci.query_id AND g.slot = ci.slot
WHERE c.expansion = p_expansion AND c.status = 'valid'
  AND c.combo_id <> 0 AND NOT c.is_original
GROUP BY ci.benchmark, ci.query_id, ci.combo_id, ci.item_id;
