-- 50_verdict_items: what a reviewer sees of each item of a verdict-level sample, in position
-- order: the request (query text, instruction), the sub-query, the reference and the candidate.
-- Nothing of the judge or the retriever (part, stratum, rank, confidence, reason) is returned,
-- so no view can show it; the labels a role may see come from 24_role_labels.
-- Reads: review_verdict_samples, queries. Creates: nothing. Parameters: $sample_id.
SELECT s.position, s.benchmark, s.expansion, s.query_id, s.slot, s.item_id, s.reference,
       s.subquery, q.text AS query, q.instruction
FROM review_verdict_samples s
JOIN queries q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
WHERE s.sample_id = $sample_id
ORDER BY s.position
