-- 40_label_tasks: what a judge needs to see for each labelled verdict, and what says where the
-- sub-query comes from.
-- Reads: eval_labels (registered: key, benchmark, query_id, slot, subquery, reference, candidate,
-- label, note, source, stratum), queries, qrels, items, subqueries, candidates.
-- Creates: nothing. Parameters: $expansion (the expansion whose sub-queries and candidate ranks
-- are used). A label whose query or items are no longer stored drops out (the caller counts it).
SELECT l.key, l.benchmark, l.query_id, g.slot, l.reference, l.candidate, l.label, l.note,
       l.source, l.stratum,
       l.subquery AS label_subquery, s.text AS expansion_subquery, c.rank AS expansion_rank,
       q.text AS request, q.category AS query_category,
       ri.name AS r_name, ri.platform AS r_platform, ri.doc AS r_doc, ri.text AS r_text,
       ri.kind AS r_kind, ci.kind AS c_kind,
       ci.name AS c_name, ci.platform AS c_platform, ci.doc AS c_doc, ci.text AS c_text
FROM eval_labels AS l
JOIN queries AS q ON q.benchmark = l.benchmark AND q.query_id = l.query_id
JOIN qrels AS g ON g.benchmark = l.benchmark AND g.query_id = l.query_id
     AND g.item_id = l.reference
JOIN items AS ri ON ri.benchmark = l.benchmark AND ri.item_id = l.reference
JOIN items AS ci ON ci.benchmark = l.benchmark AND ci.item_id = l.candidate
LEFT JOIN subqueries AS s ON s.benchmark = l.benchmark AND s.expansion = $expansion
     AND s.query_id = l.query_id AND s.reference = l.reference
LEFT JOIN candidates AS c ON c.benchmark = l.benchmark AND c.expansion = $expansion
     AND c.query_id = l.query_id AND c.slot = g.slot AND c.item_id = l.candidate
ORDER BY l.key;
