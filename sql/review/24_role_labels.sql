-- 24_role_labels: what one role may see of a sample's labels, at either level, one row per item
-- it concerns, keyed by the item's key (every column of the labels table but the label's own:
-- sample_id and the level's key columns). A reviewer gets the items they labelled with their OWN
-- label only (reviewers are blind to each other); the adjudicator gets only the items the two
-- reviewers both labelled and disagree on (label, or bucket when both give the negative label),
-- with its own label and both reviewers' labels and notes. toolex.review.labels.items_for joins
-- these to what the reviewer sees of each item (20, 50).
-- Reads: the level's labels table ($labels: review_labels or review_verdict_labels, a name from
-- toolex.review.levels read by query_table). Creates: nothing.
-- Parameters: $labels, $sample_id, $role (reviewer1|reviewer2|adjudicator).
WITH by_item AS (
    -- one row per item: its key, then each role's label (max of the one label a role gives
    -- an item: the role is part of the table's key)
    SELECT * EXCLUDE (role, reviewer, label, bucket, note, labelled_at),
           max(label) FILTER (WHERE role = $role) AS label,
           max(bucket) FILTER (WHERE role = $role) AS bucket,
           max(note) FILTER (WHERE role = $role) AS note,
           max(reviewer) FILTER (WHERE role = $role) AS reviewer,
           max(label) FILTER (WHERE role = 'reviewer1') AS r1_label,
           max(bucket) FILTER (WHERE role = 'reviewer1') AS r1_bucket,
           max(note) FILTER (WHERE role = 'reviewer1') AS r1_note,
           max(label) FILTER (WHERE role = 'reviewer2') AS r2_label,
           max(bucket) FILTER (WHERE role = 'reviewer2') AS r2_bucket,
           max(note) FILTER (WHERE role = 'reviewer2') AS r2_note
    FROM query_table($labels)
    WHERE sample_id = $sample_id
    GROUP BY ALL
)
SELECT * REPLACE (
           CASE WHEN $role = 'adjudicator' THEN r1_label END AS r1_label,
           CASE WHEN $role = 'adjudicator' THEN r1_bucket END AS r1_bucket,
           CASE WHEN $role = 'adjudicator' THEN r1_note END AS r1_note,
           CASE WHEN $role = 'adjudicator' THEN r2_label END AS r2_label,
           CASE WHEN $role = 'adjudicator' THEN r2_bucket END AS r2_bucket,
           CASE WHEN $role = 'adjudicator' THEN r2_note END AS r2_note
       )
FROM by_item
WHERE CASE WHEN $role = 'adjudicator'
           THEN r1_label IS NOT NULL AND r2_label IS NOT NULL
                AND (r1_label <> r2_label OR coalesce(r1_bucket, '') <> coalesce(r2_bucket, ''))
           ELSE label IS NOT NULL END
