-- 50_verdict_items: a verdict-level sample's items as one role sees them, in position order: the
-- request (query text, instruction), the sub-query, the reference and the candidate, and only
-- THIS role's label (reviewers are blind to each other). Nothing of the judge or the retriever
-- (part, stratum, rank, confidence, reason) is returned, so no view can show it. For the
-- adjudicator, only the items both reviewers labelled and disagree on (label, or bucket when both
-- say no), with both labels and notes.
-- Reads: review_verdict_samples, review_verdict_labels, queries. Creates: nothing.
-- Parameters: $sample_id, $role (reviewer1|reviewer2|adjudicator).
WITH l AS (SELECT * FROM review_verdict_labels WHERE sample_id = $sample_id)
SELECT s.position, s.benchmark, s.expansion, s.query_id, s.slot, s.item_id, s.reference,
       s.subquery, q.text AS query, q.instruction,
       own.label, own.bucket, own.note, own.reviewer,
       CASE WHEN $role = 'adjudicator' THEN r1.label END AS r1_label,
       CASE WHEN $role = 'adjudicator' THEN r1.bucket END AS r1_bucket,
       CASE WHEN $role = 'adjudicator' THEN r1.note END AS r1_note,
       CASE WHEN $role = 'adjudicator' THEN r2.label END AS r2_label,
       CASE WHEN $role = 'adjudicator' THEN r2.bucket END AS r2_bucket,
       CASE WHEN $role = 'adjudicator' THEN r2.note END AS r2_note
FROM review_verdict_samples s
JOIN queries q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
LEFT JOIN l own ON (own.benchmark, own.expansion, own.query_id, own.slot, own.item_id, own.role)
                 = (s.benchmark, s.expansion, s.query_id, s.slot, s.item_id, $role)
LEFT JOIN l r1 ON (r1.benchmark, r1.expansion, r1.query_id, r1.slot, r1.item_id, r1.role)
                = (s.benchmark, s.expansion, s.query_id, s.slot, s.item_id, 'reviewer1')
LEFT JOIN l r2 ON (r2.benchmark, r2.expansion, r2.query_id, r2.slot, r2.item_id, r2.role)
                = (s.benchmark, s.expansion, s.query_id, s.slot, s.item_id, 'reviewer2')
WHERE s.sample_id = $sample_id
  AND ($role <> 'adjudicator'
       OR (r1.label IS NOT NULL AND r2.label IS NOT NULL
           AND (r1.label <> r2.label OR coalesce(r1.bucket, '') <> coalesce(r2.bucket, ''))))
ORDER BY s.position
