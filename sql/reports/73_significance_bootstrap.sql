-- 73_significance_bootstrap: percentile bootstrap confidence interval of each mean difference.
-- Reads: report_diffs (70, 71). Creates: TEMP TABLE report_cis (test, run_a, run_b, measure,
-- category, metric, k, ci_low, ci_high).
-- Parameters: $seed INTEGER, $n_boot INTEGER (resamples), $alpha DOUBLE (0.05 = a 95% CI).
-- Each resample draws n queries with replacement (draw t of resample b picks query
-- hash(concat_ws(':', $seed, b, t)) mod n); the interval is the alpha/2 and 1 - alpha/2 quantiles of the
-- resample means (Efron & Tibshirani 1993). The same draws serve every group of the same size,
-- so metrics and measures of one group are resampled jointly (paired).
CREATE OR REPLACE TEMP TABLE report_cis AS
WITH d AS (
    SELECT
        *,
        row_number() OVER (PARTITION BY test, run_a, run_b, measure, category, metric, k
                           ORDER BY query_id) - 1 AS j
    FROM report_diffs
),
g AS (
    SELECT test, run_a, run_b, measure, category, metric, k, count(*) AS n
    FROM report_diffs
    GROUP BY test, run_a, run_b, measure, category, metric, k
),
resamples AS (
    SELECT *, unnest(range($n_boot::BIGINT)) AS b FROM g
),
draws AS (
    SELECT *, unnest(range(n)) AS t FROM resamples
),
means AS (
    SELECT x.test, x.run_a, x.run_b, x.measure, x.category, x.metric, x.k, x.b, avg(d.diff) AS m
    FROM draws AS x
    JOIN d
      ON d.test = x.test AND d.run_a = x.run_a AND d.run_b = x.run_b AND d.measure = x.measure
     AND d.category = x.category AND d.metric = x.metric AND d.k = x.k
     AND d.j = hash(concat_ws(':', $seed, x.b, x.t)) % x.n
    GROUP BY x.test, x.run_a, x.run_b, x.measure, x.category, x.metric, x.k, x.b
)
SELECT
    test, run_a, run_b, measure, category, metric, k,
    quantile_cont(m, $alpha / 2) AS ci_low,
    quantile_cont(m, 1 - $alpha / 2) AS ci_high
FROM means
GROUP BY test, run_a, run_b, measure, category, metric, k;
