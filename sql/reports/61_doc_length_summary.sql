-- 61_doc_length_summary: the distribution of documentation lengths per benchmark and category.
-- Reads: items. Creates: nothing. Parameters: $benchmarks VARCHAR[].
-- Words as in 60_doc_lengths; category 'all' pools the benchmark. Share over 256 / 512 words:
-- the input limits of common small embedders (in word pieces, so these shares are lower bounds).
WITH lengths AS (
    SELECT
        benchmark,
        coalesce(category, '(none)') AS category,
        len(string_split_regex(trim(text), '\s+')) AS n_words
    FROM items
    WHERE list_contains($benchmarks::VARCHAR[], benchmark)
)
SELECT
    benchmark,
    coalesce(category, 'all') AS category,
    count(*) AS n_tools,
    avg(n_words) AS mean_words,
    min(n_words) AS min_words,
    quantile_cont(n_words, 0.25) AS p25_words,
    median(n_words) AS median_words,
    quantile_cont(n_words, 0.75) AS p75_words,
    quantile_cont(n_words, 0.9) AS p90_words,
    max(n_words) AS max_words,
    avg((n_words > 256)::INTEGER) AS share_over_256,
    avg((n_words > 512)::INTEGER) AS share_over_512
FROM lengths
GROUP BY GROUPING SETS ((benchmark, category), (benchmark))
ORDER BY benchmark, category IS NULL DESC, category;
