-- 12_sample_size: how many items a sample holds (0 = no such sample), and its settings.
-- Reads: review_samples. Creates: nothing. Parameters: $sample_id.
SELECT count(*) AS n, min(benchmark) AS benchmark, min(expansion) AS expansion, min(seed) AS seed
FROM review_samples WHERE sample_id = $sample_id
