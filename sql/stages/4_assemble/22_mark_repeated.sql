-- 22_mark_repeated: mark the batch's pending combinations that repeat a tool set already kept,
-- before the audit budget is applied (13), so an alternative is a distinct tool set; 15 counts
-- and drops them as it does the rule's rejections.
-- Reads: assembly_round, assembly_round_items (08: the batch, judged by 11 and 12),
-- assembled_items (08: what the group's earlier batches kept), qrels.
-- Updates: assembly_round.status of pending ones to 'repeated' (never stored: 13 cuts the ones
-- ranked past the budget, 15 counts the rest in assembled_repeated). Parameters: none (the rows
-- carry their benchmark).
-- A combination's tool set is its distinct items, each at the grade of the label of the slot it
-- fills (the highest, for an item in two slots; 1 for a slot without a label): exactly what
-- scoring reads of it (sql/metrics/020), so two combinations of one tool set score the same on
-- every metric and "new", the best over the valid ones, cannot change by keeping one of them.
-- With one grade per query (StableToolBench, ToolRet, SkillRet's seeds) it is the set of items.
-- Kept: the original (its tool set is the labels themselves), else the best-ranked combination
-- the rules let through: the enumeration goes in rank order, so what earlier batches kept ranks
-- above this batch. A repeat of a combination the rules rejected is not a repeat: (B, A) may
-- pass a dependency rule that (A, B) broke. Repeats do not use the audit budget, and are never
-- audited (the auditor would judge one tool set twice).
UPDATE assembly_round AS r
SET status = 'repeated'
FROM (
WITH queries AS (
    SELECT DISTINCT benchmark, query_id FROM assembly_round
),
grade AS (
    SELECT q.query_id, q.slot, max(q.relevance) AS grade
    FROM qrels AS q JOIN queries AS r ON r.benchmark = q.benchmark AND r.query_id = q.query_id
    GROUP BY ALL
),
members AS (
    SELECT 'batch' AS part, i.query_id, i.combo_id, i.item_id, max(coalesce(g.grade, 1)) AS grade
    FROM assembly_round_items AS i
    JOIN assembly_round AS c ON c.query_id = i.query_id AND c.combo_id = i.combo_id
    LEFT JOIN grade AS g ON g.query_id = i.query_id AND g.slot = i.slot
    WHERE c.status = 'pending'
    GROUP BY ALL
    UNION ALL
    SELECT 'kept', i.query_id, i.combo_id, i.item_id, max(coalesce(g.grade, 1))
    FROM assembled_items AS i
    JOIN queries AS r ON r.query_id = i.query_id
    LEFT JOIN grade AS g ON g.query_id = i.query_id AND g.slot = i.slot
    GROUP BY ALL
    UNION ALL
    SELECT 'kept', q.query_id, -1, q.item_id, max(q.relevance)
    FROM qrels AS q JOIN queries AS r ON r.benchmark = q.benchmark AND r.query_id = q.query_id
    GROUP BY ALL
),
sets AS (
    SELECT part, query_id, combo_id, list_sort(list(item_id || chr(9) || grade)) AS tools
    FROM members
    GROUP BY ALL
),
batch AS (
    SELECT s.query_id, s.combo_id, s.tools, c.rrf_rank
    FROM sets AS s JOIN assembly_round AS c ON c.query_id = s.query_id AND c.combo_id = s.combo_id
    WHERE s.part = 'batch' AND NOT c.is_original
)
SELECT b.query_id, b.combo_id
FROM batch AS b
WHERE EXISTS (SELECT 1 FROM sets AS k WHERE k.part = 'kept' AND k.query_id = b.query_id
              AND k.tools = b.tools)
   OR EXISTS (SELECT 1 FROM batch AS o WHERE o.query_id = b.query_id AND o.tools = b.tools
              AND o.rrf_rank < b.rrf_rank)
) AS x
WHERE r.query_id = x.query_id AND r.combo_id = x.combo_id;
