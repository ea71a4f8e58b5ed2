-- 52_verdict_role_reviewers: who has labelled a verdict-level sample in which role (a person
-- holds one role only).
-- Reads: review_verdict_labels. Creates: nothing. Parameters: $sample_id.
SELECT DISTINCT role, reviewer FROM review_verdict_labels WHERE sample_id = $sample_id
ORDER BY role
