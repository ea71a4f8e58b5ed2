-- 23_role_reviewers: who has labelled a sample in which role, at either level (a person holds
-- one role only).
-- Reads: the level's labels table ($labels: review_labels or review_verdict_labels, a name from
-- toolex.review.levels read by query_table). Creates: nothing.
-- Parameters: $labels, $sample_id.
SELECT DISTINCT role, reviewer FROM query_table($labels) WHERE sample_id = $sample_id ORDER BY role
