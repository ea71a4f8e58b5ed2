-- 72_significance_randomisation: paired randomisation (sign-flip) test of each mean difference.
-- Reads: report_diffs (70, 71). Creates: TEMP TABLE report_pvalues (test, run_a, run_b, measure,
-- category, metric, k, n_queries, mean_diff, exact, n_permutations, p_value).
-- Parameters: $seed INTEGER, $n_perm INTEGER (random sign vectors), $exact_max INTEGER.
-- Under H0 (no difference) each query's difference is as likely +d as -d. The two-sided
-- p-value is the share of sign vectors whose mean is at least as far from 0 as the observed one
-- (Fisher 1935; Smucker, Allan & Carterette, CIKM 2007). Groups of n <= $exact_max queries
-- enumerate all 2^n vectors (exact: p = count / 2^n, query j flipped when bit j of the vector
-- is set); larger groups draw $n_perm vectors, query flipped when
-- hash(concat_ws(':', $seed, vector, query)) is odd (one hash of the joined string: DuckDB's
-- multi-argument hash XORs the arguments' hashes, so its low bit would not vary), and use
-- p = (count + 1) / ($n_perm + 1) (Phipson & Smyth 2010).
CREATE OR REPLACE TEMP TABLE report_pvalues AS
WITH d AS (
    SELECT
        *,
        row_number() OVER w - 1 AS j,
        count(*) OVER w AS n
    FROM report_diffs
    WINDOW w AS (PARTITION BY test, run_a, run_b, measure, category, metric, k ORDER BY query_id)
),
g AS (
    SELECT
        test, run_a, run_b, measure, category, metric, k,
        count(*) AS n,
        avg(diff) AS mean_diff,
        count(*) <= $exact_max AS exact,
        CASE WHEN count(*) <= $exact_max THEN (1::BIGINT << count(*)::INTEGER)
             ELSE $n_perm::BIGINT END AS n_permutations
    FROM report_diffs
    GROUP BY test, run_a, run_b, measure, category, metric, k
),
vectors AS (
    SELECT *, unnest(range(n_permutations)) AS v FROM g
),
flipped AS (
    SELECT
        x.test, x.run_a, x.run_b, x.measure, x.category, x.metric, x.k, x.v,
        avg(CASE WHEN (CASE WHEN x.exact THEN (x.v >> d.j::BIGINT) & 1
                            ELSE hash(concat_ws(':', $seed, x.v, d.query_id)) % 2 END) = 1
                 THEN -d.diff ELSE d.diff END) AS m,
        max(x.mean_diff) AS mean_diff
    FROM vectors AS x
    JOIN d USING (test, run_a, run_b, measure, category, metric, k)
    GROUP BY x.test, x.run_a, x.run_b, x.measure, x.category, x.metric, x.k, x.v
),
hits AS (
    -- 1e-12 absorbs float noise so a vector equal to the observed one counts as "as extreme"
    SELECT test, run_a, run_b, measure, category, metric, k,
           count(*) FILTER (WHERE abs(m) >= abs(mean_diff) - 1e-12) AS n_extreme
    FROM flipped
    GROUP BY test, run_a, run_b, measure, category, metric, k
)
SELECT
    g.test, g.run_a, g.run_b, g.measure, g.category, g.metric, g.k,
    g.n AS n_queries,
    g.mean_diff,
    g.exact,
    g.n_permutations,
    CASE WHEN g.exact THEN h.n_extreme / g.n_permutations
         ELSE (h.n_extreme + 1) / (g.n_permutations + 1) END AS p_value
FROM g
JOIN hits AS h USING (test, run_a, run_b, measure, category, metric, k);
