-- 20_items: a combination-level sample's items as one role sees them, in position order: query,
-- instruction, the candidate and reference combinations, and only THIS role's label (reviewers
-- are blind to each other). Nothing of the judges or the ranking (audit reason, RRF rank) is
-- returned, so no view can show it. For the adjudicator, only items the two reviewers both
-- labelled and disagree on (label, or bucket when both say invalid), with both labels and notes.
-- Reads: review_samples, review_labels, queries, combination_items, qrels.
-- Creates: nothing. Parameters: $sample_id, $role (reviewer1|reviewer2|adjudicator).
WITH l AS (SELECT * FROM review_labels WHERE sample_id = $sample_id)
SELECT s.position, s.benchmark, s.expansion, s.query_id, s.combo_id, s.stratum,
       q.text AS query, q.instruction,
       (SELECT string_agg(ci.item_id, ' + ' ORDER BY ci.slot) FROM combination_items ci
        WHERE ci.benchmark = s.benchmark AND ci.expansion = s.expansion
          AND ci.query_id = s.query_id AND ci.combo_id = s.combo_id) AS candidate,
       (SELECT string_agg(g.item_id, ' + ' ORDER BY g.slot) FROM qrels g
        WHERE g.benchmark = s.benchmark AND g.query_id = s.query_id) AS reference,
       own.label, own.bucket, own.note, own.reviewer,
       CASE WHEN $role = 'adjudicator' THEN r1.label END AS r1_label,
       CASE WHEN $role = 'adjudicator' THEN r1.bucket END AS r1_bucket,
       CASE WHEN $role = 'adjudicator' THEN r1.note END AS r1_note,
       CASE WHEN $role = 'adjudicator' THEN r2.label END AS r2_label,
       CASE WHEN $role = 'adjudicator' THEN r2.bucket END AS r2_bucket,
       CASE WHEN $role = 'adjudicator' THEN r2.note END AS r2_note
FROM review_samples s
JOIN queries q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
LEFT JOIN l own ON own.benchmark = s.benchmark AND own.expansion = s.expansion
               AND own.query_id = s.query_id AND own.combo_id = s.combo_id AND own.role = $role
LEFT JOIN l r1 ON r1.benchmark = s.benchmark AND r1.expansion = s.expansion
              AND r1.query_id = s.query_id AND r1.combo_id = s.combo_id AND r1.role = 'reviewer1'
LEFT JOIN l r2 ON r2.benchmark = s.benchmark AND r2.expansion = s.expansion
              AND r2.query_id = s.query_id AND r2.combo_id = s.combo_id AND r2.role = 'reviewer2'
WHERE s.sample_id = $sample_id
  AND ($role <> 'adjudicator'
       OR (r1.label IS NOT NULL AND r2.label IS NOT NULL
           AND (r1.label <> r2.label OR coalesce(r1.bucket, '') <> coalesce(r2.bucket, ''))))
ORDER BY s.position
