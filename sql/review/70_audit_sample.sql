-- 70_audit_sample: the combinations of a review sample with the expansion's stored audit outcome
-- and what an audit judge needs (query, instruction, category).
-- Reads: review_samples, combinations, queries. Creates: nothing. Parameters: $sample_id.
SELECT s.benchmark, s.expansion, s.query_id, s.combo_id, s.stratum, c.status, c.reason, c.judge,
       q.text AS query, q.instruction, q.category
FROM review_samples AS s
JOIN combinations AS c ON c.benchmark = s.benchmark AND c.expansion = s.expansion
     AND c.query_id = s.query_id AND c.combo_id = s.combo_id
JOIN queries AS q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
WHERE s.sample_id = $sample_id
ORDER BY s.position;
