-- 14_sample_level: which level a sample name is used at (combination and/or verdict items), and
-- whether `labels` already holds a label set of that name (a verdict sample publishes its final
-- labels under source = sample_id, so a draw refuses a name that is taken anywhere).
-- Reads: review_samples, review_verdict_samples, labels. Creates: nothing.
-- Parameters: $sample_id.
SELECT (SELECT count(*) FROM review_samples WHERE sample_id = $sample_id) AS combinations,
       (SELECT count(*) FROM review_verdict_samples WHERE sample_id = $sample_id) AS verdicts,
       (SELECT count(*) FROM labels WHERE source = $sample_id) AS labels
