-- 63_verdict_strata: the strata of a verdict-level sample with their population and draw.
-- Reads: review_verdict_strata. Creates: nothing. Parameters: $sample_id.
SELECT stratum, part, category, rank_band, population, drawn
FROM review_verdict_strata
WHERE sample_id = $sample_id
ORDER BY part, stratum
