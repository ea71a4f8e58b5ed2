-- 02_checklists: each query's text, instruction and sub-queries (slot order), for the audit,
-- with each slot's ground-truth item (the reference combination the audit is shown).
-- Reads: queries, subqueries, items. Creates: nothing. Parameters: $benchmark, $expansion, $query_ids.
SELECT s.query_id, q.text AS query, q.instruction, s.slot, s.text,
       s.reference, i.name AS ref_name, i.platform AS ref_platform, i.doc AS ref_doc,
       i.text AS ref_text, i.kind AS ref_kind
FROM subqueries s
JOIN queries q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
LEFT JOIN items i ON i.benchmark = s.benchmark AND i.item_id = s.reference
WHERE s.benchmark = $benchmark AND s.expansion = $expansion AND list_contains($query_ids, s.query_id)
ORDER BY s.query_id, s.slot;
