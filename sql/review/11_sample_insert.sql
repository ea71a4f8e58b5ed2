-- 11_sample_insert: draw the stratified audit sample into review_samples. Within each stratum
-- items are ordered by md5(seed:query_id:combo_id), a pseudo-random order that depends only on
-- the seed and the keys (reproducible across runs and machines), and the first quota are kept;
-- reviewers see them in md5(seed:position:...) order so strata are interleaved.
-- Reads: combinations, combination_items, queries. Creates: rows of review_samples.
-- Parameters: $sample_id, $benchmark, $expansion, $seed, $strata (list of stratum names),
-- $quotas (list of counts, same order as $strata).
INSERT INTO review_samples
    (sample_id, benchmark, expansion, query_id, combo_id, stratum, position, seed)
WITH pop AS (
    SELECT c.query_id, c.combo_id,
           coalesce(q.category, '?') || ' x ' || CAST(
               (SELECT count(*) FROM combination_items ci
                WHERE ci.benchmark = c.benchmark AND ci.expansion = c.expansion
                  AND ci.query_id = c.query_id AND ci.combo_id = c.combo_id) AS VARCHAR
           ) AS stratum
    FROM combinations c
    JOIN queries q ON q.benchmark = c.benchmark AND q.query_id = c.query_id
    WHERE c.benchmark = $benchmark AND c.expansion = $expansion
      AND c.status = 'valid' AND NOT c.is_original
),
ordered AS (
    SELECT *, row_number() OVER (
        PARTITION BY stratum
        ORDER BY md5(CAST($seed AS VARCHAR) || ':' || query_id || ':' || CAST(combo_id AS VARCHAR)),
                 query_id, combo_id
    ) AS rn
    FROM pop
),
kept AS (
    SELECT * FROM ordered
    WHERE rn <= coalesce(list_extract($quotas, list_position($strata, stratum)), 0)
)
SELECT $sample_id, $benchmark, $expansion, query_id, combo_id, stratum,
       row_number() OVER (
           ORDER BY md5(CAST($seed AS VARCHAR) || ':position:' || query_id || ':'
                        || CAST(combo_id AS VARCHAR)), query_id, combo_id
       ) AS position,
       $seed
FROM kept
