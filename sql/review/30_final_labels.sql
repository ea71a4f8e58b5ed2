-- 30_final_labels: per sampled item, both reviewers' labels, the adjudication, and the final
-- label: the reviewers' shared label when they agree, else the adjudicator's (NULL = pending).
-- The final bucket follows the same rule.
-- Reads: review_samples, review_labels. Creates: nothing. Parameters: $sample_id.
WITH l AS (SELECT * FROM review_labels WHERE sample_id = $sample_id),
items AS (
    SELECT s.query_id, s.combo_id, s.stratum, s.position,
           r1.label AS r1_label, r1.bucket AS r1_bucket,
           r2.label AS r2_label, r2.bucket AS r2_bucket,
           a.label AS adj_label, a.bucket AS adj_bucket
    FROM review_samples s
    LEFT JOIN l r1 ON (r1.benchmark, r1.expansion, r1.query_id, r1.combo_id, r1.role)
                    = (s.benchmark, s.expansion, s.query_id, s.combo_id, 'reviewer1')
    LEFT JOIN l r2 ON (r2.benchmark, r2.expansion, r2.query_id, r2.combo_id, r2.role)
                    = (s.benchmark, s.expansion, s.query_id, s.combo_id, 'reviewer2')
    LEFT JOIN l a ON (a.benchmark, a.expansion, a.query_id, a.combo_id, a.role)
                   = (s.benchmark, s.expansion, s.query_id, s.combo_id, 'adjudicator')
    WHERE s.sample_id = $sample_id
),
judged AS (
    SELECT *, r1_label = r2_label AND coalesce(r1_bucket, '') = coalesce(r2_bucket, '') AS agree
    FROM items
)
SELECT *,
       CASE WHEN agree THEN r1_label ELSE adj_label END AS final_label,
       CASE WHEN agree THEN r1_bucket ELSE adj_bucket END AS final_bucket
FROM judged
ORDER BY position
