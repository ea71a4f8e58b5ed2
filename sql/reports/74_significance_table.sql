-- 74_significance_table: the significance table, p-value and bootstrap CI side by side.
-- Reads: report_pvalues (72), report_cis (73). Creates: nothing. Parameters: none.
SELECT
    p.test,
    p.run_a,
    nullif(p.run_b, '') AS run_b,
    p.measure,
    p.category,
    p.metric,
    p.k,
    p.n_queries,
    p.mean_diff,
    c.ci_low,
    c.ci_high,
    p.p_value,
    p.exact,
    p.n_permutations
FROM report_pvalues AS p
LEFT JOIN report_cis AS c USING (test, run_a, run_b, measure, category, metric, k)
ORDER BY p.test, p.run_a, p.run_b, p.measure, p.category = 'all' DESC, p.category, p.k,
    CASE p.metric WHEN 'ndcg' THEN 0 WHEN 'recall' THEN 1 ELSE 2 END;
