-- 73_significance_bootstrap: Poisson-bootstrap confidence interval of each mean difference.
-- Reads: report_diffs (70, 71; one row per query under its category). Creates: TEMP TABLE
-- report_cis (test, run_a, run_b, measure, category, metric, k, ci_low, ci_high), per category
-- and for 'all'. Parameters: $seed INTEGER, $n_boot INTEGER (resamples), $alpha DOUBLE
-- (0.05 = a 95% interval).
-- Resample b gives query q the weight c ~ Poisson(1) (the Poisson bootstrap: Hanley &
-- MacGibbon 2006, Chamandy et al. 2012; it approximates drawing n queries with replacement),
-- drawn by inverse CDF from u = (hash(concat_ws(':', $seed, 'boot', b, q)) >> 11) / 2^53.
-- The resample mean is sum(c * d) / sum(c) over the group's queries and the interval is its
-- alpha/2 and 1 - alpha/2 quantiles (percentile interval, Efron & Tibshirani 1993). One weight
-- per (b, query) serves every group, so metrics and measures are resampled jointly (paired),
-- zero differences only enter the denominator, and 'all' sums the category sums.
CREATE OR REPLACE TEMP TABLE report_cis AS
WITH draws AS (
    SELECT q.query_id, t.b,
           (hash(concat_ws(':', $seed, 'boot', t.b, q.query_id)) >> 11) / 9007199254740992.0 AS u
    FROM (SELECT DISTINCT query_id FROM report_diffs) AS q
    CROSS JOIN range($n_boot::BIGINT) AS t(b)
),
weights AS (
    SELECT query_id, b,
           CASE WHEN u < 0.36787944117144233 THEN 0 WHEN u < 0.7357588823428847 THEN 1
                WHEN u < 0.9196986029286058 THEN 2 WHEN u < 0.9810118431238462 THEN 3
                WHEN u < 0.9963401531726563 THEN 4 WHEN u < 0.9994058151824183 THEN 5
                WHEN u < 0.9999167588507099 THEN 6 ELSE 7 END AS c
    FROM draws
),
query_sets AS (
    -- toolex.metrics scores every run on every judged query of its benchmark, so all groups of
    -- one benchmark and category share their queries, hence their denominators
    SELECT DISTINCT benchmark, category, query_id FROM report_diffs
),
denom_category AS (
    SELECT s.benchmark, s.category, w.b, sum(w.c) AS w
    FROM query_sets AS s
    JOIN weights AS w USING (query_id)
    GROUP BY s.benchmark, s.category, w.b
),
denom AS (
    SELECT * FROM denom_category
    UNION ALL
    SELECT benchmark, 'all', b, sum(w) FROM denom_category GROUP BY benchmark, b
),
num_category AS (
    SELECT d.test, d.run_a, d.run_b, d.measure, d.category, d.metric, d.k, w.b,
           sum(w.c * d.diff) AS s
    FROM report_diffs AS d
    JOIN weights AS w USING (query_id)
    WHERE d.diff <> 0
    GROUP BY d.test, d.run_a, d.run_b, d.measure, d.category, d.metric, d.k, w.b
),
num AS (
    SELECT * FROM num_category
    UNION ALL
    SELECT test, run_a, run_b, measure, 'all', metric, k, b, sum(s)
    FROM num_category
    GROUP BY test, run_a, run_b, measure, metric, k, b
),
groups AS (
    SELECT DISTINCT test, run_a, run_b, measure, benchmark, category, metric, k FROM report_diffs
    UNION
    SELECT DISTINCT test, run_a, run_b, measure, benchmark, 'all', metric, k FROM report_diffs
),
means AS (
    SELECT g.test, g.run_a, g.run_b, g.measure, g.category, g.metric, g.k, d.b,
           coalesce(n.s, 0) / nullif(d.w, 0) AS m
    FROM groups AS g
    JOIN denom AS d USING (benchmark, category)
    LEFT JOIN num AS n
      ON n.test = g.test AND n.run_a = g.run_a AND n.run_b = g.run_b AND n.measure = g.measure
     AND n.category = g.category AND n.metric = g.metric AND n.k = g.k AND n.b = d.b
)
SELECT
    test, run_a, run_b, measure, category, metric, k,
    quantile_cont(m, $alpha / 2) AS ci_low,
    quantile_cont(m, 1 - $alpha / 2) AS ci_high
FROM means
GROUP BY test, run_a, run_b, measure, category, metric, k;
