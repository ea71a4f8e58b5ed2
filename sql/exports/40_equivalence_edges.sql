-- 40_equivalence_edges: the library's equivalence graph, one edge per accepted verdict: the
-- candidate can stand in for the reference (the slot's ground-truth item) on this step, with the
-- sub-query it holds under and who decided it.
-- Reads: verdicts, subqueries, items. Creates: nothing (a result set).
-- Parameters: $benchmark, $expansion.
-- The reference's own verdict (judge 'reference') is no edge; a verdict carried over from
-- another sub-query (judge 'reused') is one, marked.
SELECT v.benchmark, v.expansion,
       s.reference, v.item_id AS candidate,
       r.name AS reference_name, r.platform AS reference_platform,
       c.name AS candidate_name, c.platform AS candidate_platform,
       v.query_id, v.slot, s.text AS subquery, s.operation, s.entity,
       v.judge, v.confidence, v.reason, v.call_id
FROM verdicts v
JOIN subqueries s ON s.benchmark = v.benchmark AND s.expansion = v.expansion
     AND s.query_id = v.query_id AND s.slot = v.slot
JOIN items r ON r.benchmark = s.benchmark AND r.item_id = s.reference
JOIN items c ON c.benchmark = v.benchmark AND c.item_id = v.item_id
WHERE v.benchmark = $benchmark AND v.expansion = $expansion
  AND v.accepted AND v.item_id <> s.reference
ORDER BY reference, candidate, v.query_id, v.slot;
