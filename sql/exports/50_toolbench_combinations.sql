-- 50_toolbench_combinations: every valid combination of an expansion with its members' raw
-- documentation, for the ToolBench-format export (toolex.exports.toolbench).
-- Reads: queries, qrels, combinations, combination_items, items. Creates: nothing.
-- Parameters: $benchmark VARCHAR, $expansion VARCHAR.
-- One row per query x valid combination: query_id, task (the StableToolBench group), combo_id
-- (0: the original, read from qrels, for every labelled query), members (item ids, slot order)
-- and docs (each member's items.doc as loaded: the RapidAPI api_list entry, JSON text).
-- Rejected, cut and pending combinations are not valid: they are never exported.
WITH members AS (
    SELECT query_id, 0 AS combo_id, slot, item_id FROM qrels WHERE benchmark = $benchmark
    UNION ALL
    SELECT ci.query_id, ci.combo_id, ci.slot, ci.item_id
    FROM combination_items AS ci
    JOIN combinations AS c USING (benchmark, expansion, query_id, combo_id)
    WHERE ci.benchmark = $benchmark AND ci.expansion = $expansion
      AND c.status = 'valid' AND ci.combo_id <> 0 AND NOT c.is_original
)
SELECT m.query_id, q.task, m.combo_id,
       list(m.item_id ORDER BY m.slot) AS members,
       list(CAST(i.doc AS VARCHAR) ORDER BY m.slot) AS docs
FROM members AS m
JOIN queries AS q ON q.benchmark = $benchmark AND q.query_id = m.query_id
JOIN items AS i ON i.benchmark = $benchmark AND i.item_id = m.item_id
GROUP BY m.query_id, q.task, m.combo_id
ORDER BY m.query_id, m.combo_id
