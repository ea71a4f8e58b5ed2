-- 50_heterogeneity: how much the expansion changes scores, category by category.
-- Reads: report_summary (toolex.metrics.summary rows, registered by the report builder), runs.
-- Creates: nothing. Parameters: none.
-- One row per run x category (not 'all'): the three gains, their mean delta, the category's
-- rank by delta within the run (1 = largest), and the run's spread of delta over categories.
WITH d AS (
    SELECT
        s.run_id,
        r.benchmark,
        r.level,
        s.category,
        s.k,
        max(s.n_queries) AS n_queries,
        max(CASE WHEN s.metric = 'ndcg' THEN s.gain END) AS ndcg_gain,
        max(CASE WHEN s.metric = 'recall' THEN s.gain END) AS recall_gain,
        max(CASE WHEN s.metric = 'comp' THEN s.gain END) AS comp_gain,
        avg(CASE WHEN s.metric IN ('ndcg', 'recall', 'comp') THEN s.gain END) AS delta
    FROM report_summary AS s
    JOIN runs AS r USING (run_id)
    WHERE s.category <> 'all'
    GROUP BY s.run_id, r.benchmark, r.level, s.category, s.k
)
SELECT
    *,
    rank() OVER (PARTITION BY run_id, k ORDER BY delta DESC) AS delta_rank,
    max(delta) OVER (PARTITION BY run_id, k) - min(delta) OVER (PARTITION BY run_id, k)
        AS run_delta_range,
    stddev_pop(delta) OVER (PARTITION BY run_id, k) AS run_delta_sd
FROM d
ORDER BY run_id, k, delta DESC, category;
