-- 41_equivalent_rank_summary: shares of queries with each kind of tool in the top K.
-- Reads: report_best_ranks (40). Creates: nothing. Parameters: $k INTEGER.
-- One row per run x category (and 'all'): n_queries (with >= 1 verified equivalent), the share
-- with the ground truth / an equivalent / the random tool at rank <= K, the share where no
-- ground-truth tool is in the top K but an equivalent is, and the median best ranks (over the
-- queries where the run returned that tool). The random tool's share is over n_random, the
-- queries 40 could draw one for (a candidate pool of only ground truth and equivalents has none).
WITH wide AS (
    SELECT
        run_id,
        category,
        query_id,
        max(CASE WHEN kind = 'gt' THEN best_rank END) AS gt_rank,
        max(CASE WHEN kind = 'equivalent' THEN best_rank END) AS eq_rank,
        max(CASE WHEN kind = 'random' THEN best_rank END) AS random_rank,
        bool_or(kind = 'random') AS drawn
    FROM report_best_ranks
    GROUP BY run_id, category, query_id
)
SELECT
    run_id,
    coalesce(category, 'all') AS category,
    count(*) AS n_queries,
    avg((coalesce(gt_rank, 2147483647) <= $k)::INTEGER) AS share_gt_in_top_k,
    avg((coalesce(eq_rank, 2147483647) <= $k)::INTEGER) AS share_equivalent_in_top_k,
    count(*) FILTER (WHERE drawn) AS n_random,
    avg((coalesce(random_rank, 2147483647) <= $k)::INTEGER) FILTER (WHERE drawn)
        AS share_random_in_top_k,
    avg((coalesce(gt_rank, 2147483647) > $k AND coalesce(eq_rank, 2147483647) <= $k)::INTEGER)
        AS share_gt_out_equivalent_in,
    median(gt_rank) AS median_gt_rank,
    median(eq_rank) AS median_equivalent_rank,
    median(random_rank) AS median_random_rank
FROM wide
GROUP BY GROUPING SETS ((run_id, category), (run_id))
ORDER BY run_id, category IS NULL DESC, category;
