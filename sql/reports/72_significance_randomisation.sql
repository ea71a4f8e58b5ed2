-- 72_significance_randomisation: paired randomisation (sign-flip) test of each mean difference.
-- Reads: report_diffs (70, 71; one row per query under its category). Creates: TEMP TABLE
-- report_pvalues (test, run_a, run_b, measure, category, metric, k, n_queries, mean_diff, exact,
-- n_permutations, p_value), per category and for 'all' (every query of the run or pair).
-- Parameters: $seed INTEGER, $n_perm INTEGER (random sign vectors), $exact_max INTEGER.
-- Under H0 (no difference) each query's difference is as likely +d as -d. The two-sided
-- p-value is the share of sign vectors whose mean is at least as far from 0 as the observed one
-- (Fisher 1935; Smucker, Allan & Carterette, CIKM 2007).
-- * Groups of n <= $exact_max queries enumerate all 2^n vectors: p = count / 2^n (query j, in
--   query_id order, flipped when bit j of the vector is set).
-- * Larger groups draw $n_perm vectors: query q is flipped in vector v when
--   hash(concat_ws(':', $seed, v, q)) is odd (one hash of the joined string: DuckDB's
--   multi-argument hash XORs its arguments' hashes, whose low bit would then not vary), and
--   p = (count + 1) / ($n_perm + 1) (Phipson & Smyth 2010). A query's sign is the same in every
--   group, so zero differences (most queries, for gains) are skipped and 'all' is the sum of the
--   category sums: the cost is (non-zero differences) x $n_perm rows.
CREATE OR REPLACE TEMP TABLE report_pvalues AS
WITH expanded AS (
    SELECT test, run_a, run_b, measure, category, metric, k, query_id, diff FROM report_diffs
    UNION ALL
    SELECT test, run_a, run_b, measure, 'all', metric, k, query_id, diff FROM report_diffs
),
g AS (
    SELECT
        test, run_a, run_b, measure, category, metric, k,
        count(*) AS n,
        avg(diff) AS mean_diff,
        sum(CASE WHEN diff <> 0 THEN 1 ELSE 0 END) AS n_nonzero,
        count(*) <= $exact_max AS exact,
        CASE WHEN count(*) <= $exact_max THEN (1::BIGINT << count(*)::INTEGER)
             ELSE $n_perm::BIGINT END AS n_permutations
    FROM expanded
    GROUP BY test, run_a, run_b, measure, category, metric, k
),
exact_rows AS (
    SELECT
        e.*,
        row_number() OVER (PARTITION BY e.test, e.run_a, e.run_b, e.measure, e.category,
                           e.metric, e.k ORDER BY e.query_id) - 1 AS j
    FROM expanded AS e
    JOIN g USING (test, run_a, run_b, measure, category, metric, k)
    WHERE g.exact
),
exact_vectors AS (
    SELECT test, run_a, run_b, measure, category, metric, k, unnest(range(n_permutations)) AS v
    FROM g
    WHERE exact
),
exact_sums AS (
    SELECT x.test, x.run_a, x.run_b, x.measure, x.category, x.metric, x.k, x.v,
           sum(CASE WHEN (x.v >> r.j::BIGINT) & 1 = 1 THEN -r.diff ELSE r.diff END) AS s
    FROM exact_vectors AS x
    JOIN exact_rows AS r USING (test, run_a, run_b, measure, category, metric, k)
    GROUP BY x.test, x.run_a, x.run_b, x.measure, x.category, x.metric, x.k, x.v
),
signs AS (
    SELECT q.query_id, t.v, hash(concat_ws(':', $seed, t.v, q.query_id)) % 2 = 1 AS flip
    FROM (SELECT DISTINCT query_id FROM report_diffs WHERE diff <> 0) AS q
    CROSS JOIN range($n_perm::BIGINT) AS t(v)
),
mc_category AS (
    SELECT d.test, d.run_a, d.run_b, d.measure, d.category, d.metric, d.k, s.v,
           sum(CASE WHEN s.flip THEN -d.diff ELSE d.diff END) AS s
    FROM report_diffs AS d
    JOIN signs AS s USING (query_id)
    WHERE d.diff <> 0
    GROUP BY d.test, d.run_a, d.run_b, d.measure, d.category, d.metric, d.k, s.v
),
mc AS (
    SELECT * FROM mc_category
    UNION ALL
    SELECT test, run_a, run_b, measure, 'all', metric, k, v, sum(s)
    FROM mc_category
    GROUP BY test, run_a, run_b, measure, metric, k, v
),
sums AS (
    SELECT * FROM exact_sums
    UNION ALL
    SELECT mc.* FROM mc JOIN g USING (test, run_a, run_b, measure, category, metric, k)
    WHERE NOT g.exact
),
hits AS (
    -- 1e-12 absorbs float noise so a vector equal to the observed one counts as "as extreme"
    SELECT s.test, s.run_a, s.run_b, s.measure, s.category, s.metric, s.k,
           sum(CASE WHEN abs(s.s / g.n) >= abs(g.mean_diff) - 1e-12 THEN 1 ELSE 0 END)
               AS n_extreme
    FROM sums AS s
    JOIN g USING (test, run_a, run_b, measure, category, metric, k)
    GROUP BY s.test, s.run_a, s.run_b, s.measure, s.category, s.metric, s.k
)
SELECT
    g.test, g.run_a, g.run_b, g.measure, g.category, g.metric, g.k,
    g.n AS n_queries,
    g.mean_diff,
    g.exact,
    g.n_permutations,
    CASE WHEN g.n_nonzero = 0 THEN 1.0  -- every vector gives 0, as extreme as the observed 0
         WHEN g.exact THEN h.n_extreme / g.n_permutations
         ELSE (h.n_extreme + 1) / (g.n_permutations + 1) END AS p_value
FROM g
LEFT JOIN hits AS h USING (test, run_a, run_b, measure, category, metric, k);
