-- 23_role_reviewers: who has labelled a sample in which role (a person holds one role only).
-- Reads: review_labels. Creates: nothing. Parameters: $sample_id.
SELECT DISTINCT role, reviewer FROM review_labels WHERE sample_id = $sample_id ORDER BY role
