-- 71_significance_run_diffs: per-query differences between two runs, under old and new.
-- Reads: report_per_query, report_run_pairs (run_a, run_b), both registered by the report
-- builder; runs, queries. Creates: rows appended to TEMP TABLE report_diffs (70), test = 'runs',
-- measure 'old' (diff = a.old - b.old) and 'new' (diff = a.new - b.new), over the queries both
-- runs were scored on. Parameters: none.
INSERT INTO report_diffs
WITH d AS (
    SELECT
        pr.run_a,
        pr.run_b,
        r.benchmark,
        coalesce(q.category, '(none)') AS category,
        a.metric,
        a.k,
        a.query_id,
        a.old - b.old AS diff_old,
        a.new - b.new AS diff_new
    FROM report_run_pairs AS pr
    JOIN report_per_query AS a ON a.run_id = pr.run_a
    JOIN report_per_query AS b
      ON b.run_id = pr.run_b AND b.query_id = a.query_id AND b.metric = a.metric AND b.k = a.k
    JOIN runs AS r ON r.run_id = pr.run_a
    JOIN queries AS q ON q.benchmark = r.benchmark AND q.query_id = a.query_id
),
measures AS (
    SELECT run_a, run_b, benchmark, 'old' AS measure, category, metric, k, query_id,
           diff_old AS diff
    FROM d
    UNION ALL
    SELECT run_a, run_b, benchmark, 'new', category, metric, k, query_id, diff_new FROM d
)
SELECT 'runs', run_a, run_b, measure, category, metric, k, query_id, diff, benchmark
FROM measures;
