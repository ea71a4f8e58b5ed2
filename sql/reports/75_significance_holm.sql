-- 75_significance_holm: Holm-Bonferroni adjusted p-values of the pairwise run comparisons.
-- Reads: report_pvalues (72). Creates: nothing (rows). Parameters: none.
-- Returns: run_a, run_b, measure, metric, k, n_queries, mean_diff, p_value, p_holm, for the
-- 'runs' tests over all queries.
-- One family per (measure, metric, K): the m comparisons of every pair of runs. With the
-- p-values sorted ascending, p_(1) <= ... <= p_(m), Holm (1979) adjusts the i-th to
-- max_{j <= i} min(1, (m - j + 1) * p_(j)), which controls the family-wise error rate at any
-- alpha without assuming the tests independent (ranx's `compare` tests every pair the same way).
WITH tests AS (
    SELECT run_a, run_b, measure, metric, k, n_queries, mean_diff, p_value,
           row_number() OVER family AS i,
           count(*) OVER (PARTITION BY measure, metric, k) AS m
    FROM report_pvalues
    WHERE test = 'runs' AND category = 'all'
    WINDOW family AS (PARTITION BY measure, metric, k ORDER BY p_value, run_a, run_b)
)
SELECT run_a, run_b, measure, metric, k, n_queries, mean_diff, p_value,
       max(least(1.0, (m - i + 1) * p_value)) OVER (
           PARTITION BY measure, metric, k ORDER BY p_value, run_a, run_b
           ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS p_holm
FROM tests
ORDER BY measure, k, metric, run_a, run_b;
