-- 43_verdict_sample_insert: draw a verdict-level sample from the population of
-- 42_verdict_population (registered as review_verdict_population): in each stratum the first
-- quota items in md5(seed:query_id:slot:item_id) order, so the same population, quotas and seed
-- always give the same sample. Positions (the order reviewers see): md5(seed:position:...) for
-- $order_by 'random'; for 'uncertainty', the distance to the judge's decision boundary
-- ascending (42_verdict_population), no confidence last, ties in the random order.
-- Reads: review_verdict_population (registered). Creates: rows of review_verdict_samples.
-- Parameters: $sample_id, $benchmark, $expansion, $seed, $order_by, $strata (stratum names),
-- $quotas (counts, same order as $strata).
INSERT INTO review_verdict_samples
    (sample_id, benchmark, expansion, query_id, slot, item_id, reference, subquery, part,
     category, rank, rank_band, stratum, position, seed)
WITH keyed AS (
    SELECT *, CAST($seed AS VARCHAR) || ':' || query_id || ':' || CAST(slot AS VARCHAR) || ':'
              || item_id AS draw_key
    FROM review_verdict_population
),
ordered AS (
    SELECT *, row_number() OVER (
        PARTITION BY stratum ORDER BY md5(draw_key), query_id, slot, item_id
    ) AS rn
    FROM keyed
),
kept AS (
    SELECT * FROM ordered
    WHERE rn <= coalesce(list_extract($quotas, list_position($strata, stratum)), 0)
)
SELECT $sample_id, $benchmark, $expansion, query_id, slot, item_id, reference, subquery, part,
       category, rank, rank_band, stratum,
       row_number() OVER (
           ORDER BY CASE WHEN $order_by = 'uncertainty' THEN uncertainty END
                        ASC NULLS LAST,
                    md5('position:' || draw_key), query_id, slot, item_id
       ) AS position,
       $seed
FROM kept
