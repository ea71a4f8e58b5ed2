-- 60_verdict_final_labels: per sampled verdict, both reviewers' labels, the adjudication, and
-- the final label: the reviewers' shared label when they agree (label and bucket), else the
-- adjudicator's (NULL = pending); the final bucket, note and labeller follow the same rule
-- (labeller 'agreed' or the adjudicator's name). With the draw's part, stratum and rank.
-- Reads: review_verdict_samples, review_verdict_labels. Creates: nothing.
-- Parameters: $sample_id; $query_id, $slot, $item_id narrow it to one item (NULL = all).
WITH l AS (SELECT * FROM review_verdict_labels WHERE sample_id = $sample_id),
items AS (
    SELECT s.benchmark, s.expansion, s.query_id, s.slot, s.item_id, s.reference, s.subquery,
           s.part, s.category, s.rank, s.rank_band, s.stratum, s.position,
           r1.label AS r1_label, r1.bucket AS r1_bucket, r1.note AS r1_note,
           r2.label AS r2_label, r2.bucket AS r2_bucket, r2.note AS r2_note,
           a.label AS adj_label, a.bucket AS adj_bucket, a.note AS adj_note,
           a.reviewer AS adjudicator
    FROM review_verdict_samples s
    LEFT JOIN l r1 ON (r1.benchmark, r1.expansion, r1.query_id, r1.slot, r1.item_id, r1.role)
                    = (s.benchmark, s.expansion, s.query_id, s.slot, s.item_id, 'reviewer1')
    LEFT JOIN l r2 ON (r2.benchmark, r2.expansion, r2.query_id, r2.slot, r2.item_id, r2.role)
                    = (s.benchmark, s.expansion, s.query_id, s.slot, s.item_id, 'reviewer2')
    LEFT JOIN l a ON (a.benchmark, a.expansion, a.query_id, a.slot, a.item_id, a.role)
                   = (s.benchmark, s.expansion, s.query_id, s.slot, s.item_id, 'adjudicator')
    WHERE s.sample_id = $sample_id
      AND ($query_id IS NULL OR s.query_id = $query_id)
      AND ($slot IS NULL OR s.slot = $slot)
      AND ($item_id IS NULL OR s.item_id = $item_id)
),
judged AS (
    SELECT *, r1_label = r2_label AND coalesce(r1_bucket, '') = coalesce(r2_bucket, '') AS agree
    FROM items
)
SELECT *,
       CASE WHEN agree THEN r1_label ELSE adj_label END AS final_label,
       CASE WHEN agree THEN r1_bucket ELSE adj_bucket END AS final_bucket,
       CASE WHEN agree THEN nullif(concat_ws(' | ', r1_note, r2_note), '')
            ELSE adj_note END AS final_note,
       CASE WHEN agree THEN 'agreed' ELSE adjudicator END AS labeller
FROM judged
ORDER BY position
