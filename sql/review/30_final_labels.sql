-- 30_final_labels: per labelled item of a sample, at either level, both reviewers' labels, the
-- adjudication, and the final label: the reviewers' shared label when they agree (label and
-- bucket), else the adjudicator's (NULL = pending); the final bucket, note and labeller follow
-- the same rule (labeller 'agreed' or the adjudicator's name; an agreed note joins both
-- reviewers'). One row per item with any label, keyed by the item's key (every column of the
-- labels table but the label's own: sample_id and the level's key columns); an item nobody has
-- labelled has no row. toolex.review.finals joins these to the sample's items (12).
-- Reads: the level's labels table ($labels: review_labels or review_verdict_labels, a name from
-- toolex.review.levels read by query_table). Creates: nothing.
-- Parameters: $labels, $sample_id, $query_id (one query's items; NULL = all).
WITH items AS (
    -- one row per item: its key, then each role's label (max of the one label a role gives
    -- an item: the role is part of the table's key)
    SELECT * EXCLUDE (role, reviewer, label, bucket, note, labelled_at),
           max(label) FILTER (WHERE role = 'reviewer1') AS r1_label,
           max(bucket) FILTER (WHERE role = 'reviewer1') AS r1_bucket,
           max(note) FILTER (WHERE role = 'reviewer1') AS r1_note,
           max(label) FILTER (WHERE role = 'reviewer2') AS r2_label,
           max(bucket) FILTER (WHERE role = 'reviewer2') AS r2_bucket,
           max(note) FILTER (WHERE role = 'reviewer2') AS r2_note,
           max(label) FILTER (WHERE role = 'adjudicator') AS adj_label,
           max(bucket) FILTER (WHERE role = 'adjudicator') AS adj_bucket,
           max(note) FILTER (WHERE role = 'adjudicator') AS adj_note,
           max(reviewer) FILTER (WHERE role = 'adjudicator') AS adjudicator
    FROM query_table($labels)
    WHERE sample_id = $sample_id AND ($query_id IS NULL OR query_id = $query_id)
    GROUP BY ALL
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
