-- 70_significance_gain_diffs: per-query differences to test, first the old-vs-new gains.
-- Reads: report_per_query (toolex.metrics.per_query rows, registered by the report builder),
-- runs, queries. Creates: TEMP TABLE report_diffs (test, run_a, run_b, measure, category,
-- metric, k, query_id, diff, benchmark), one row per query under its category; 72 and 73 derive 'all'.
-- Parameters: none. Here test = 'gain', run_b = '' and diff = new - old of run_a.
CREATE OR REPLACE TEMP TABLE report_diffs AS
WITH d AS (
    SELECT
        p.run_id AS run_a,
        r.benchmark,
        coalesce(q.category, '(none)') AS category,
        p.metric,
        p.k,
        p.query_id,
        p.new - p.old AS diff
    FROM report_per_query AS p
    JOIN runs AS r USING (run_id)
    JOIN queries AS q ON q.benchmark = r.benchmark AND q.query_id = p.query_id
)
SELECT 'gain' AS test, run_a, '' AS run_b, 'new-old' AS measure, category, metric, k, query_id,
       diff, benchmark
FROM d;
