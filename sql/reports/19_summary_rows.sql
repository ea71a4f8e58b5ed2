-- 19_summary_rows: toolex.metrics.summary rows (Python dicts bound as one list of structs) as a
-- table in report_summary's shape, which 20_main_table and 21_group_mean read once registered.
-- Reads: nothing. Creates: nothing. Parameters: $rows (a list of {run_id, category, metric, k,
-- old, new, gain, n_queries, n_no_results}).
-- toolex.reports.main_table registers this query itself (a DuckDB relation, read in place): no
-- Arrow, so `toolex eval` loads neither pyarrow nor pandas for a few rows.
SELECT unnest(
    $rows::STRUCT(
        run_id VARCHAR, category VARCHAR, metric VARCHAR, k BIGINT, old DOUBLE, new DOUBLE,
        gain DOUBLE, n_queries BIGINT, n_no_results BIGINT
    )[],
    recursive := true
);
