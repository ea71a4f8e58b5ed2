-- 15_samples: every review sample's name and level (for "did you mean" and listings).
-- Reads: review_samples, review_verdict_samples. Creates: nothing. Parameters: none.
SELECT DISTINCT sample_id, 'combination' AS level FROM review_samples
UNION
SELECT DISTINCT sample_id, 'verdict' AS level FROM review_verdict_samples
ORDER BY sample_id
