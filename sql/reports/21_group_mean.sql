-- 21_group_mean: the paper's "average", the mean of the group means (each category weighs the
-- same), per run, metric and K; 'all' beside it is the mean over queries (each query weighs the
-- same), so the two differ whenever the categories differ in size.
-- Reads: report_summary (toolex.metrics.summary rows, registered by the caller).
-- Creates: nothing. Parameters: $label (the row's group name, e.g. 'avg (category mean)').
-- Rows have report_summary's shape (its category column named "group", as
-- toolex.metrics.MeanScore reads it); n_queries and n_no_results are summed over the groups.
SELECT
    run_id,
    $label AS "group",
    metric,
    k,
    avg(old) AS old,
    avg(new) AS new,
    avg(new) - avg(old) AS gain,
    sum(n_queries) AS n_queries,
    sum(n_no_results) AS n_no_results
FROM report_summary
WHERE category <> 'all' AND category <> $label
GROUP BY run_id, metric, k
ORDER BY run_id, k, metric;
