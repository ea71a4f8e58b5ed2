-- 44_verdict_strata_insert: record one stratum of a verdict-level sample: its population and
-- how many items were drawn (the weights of the recall estimate).
-- Reads: nothing. Creates: one row of review_verdict_strata.
-- Parameters: $sample_id, $stratum, $part, $category, $rank_band, $population, $drawn.
INSERT INTO review_verdict_strata
    (sample_id, stratum, part, category, rank_band, population, drawn)
VALUES ($sample_id, $stratum, $part, $category, $rank_band, $population, $drawn)
