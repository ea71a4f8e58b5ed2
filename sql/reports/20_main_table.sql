-- 20_main_table: the main table, one row per run x group (category or task, 'all' and the
-- group mean of 21_group_mean) x K.
-- Reads: report_summary (toolex.metrics.summary rows plus their group-mean rows, registered by
-- toolex.reports.main_table), runs. Creates: nothing.
-- Parameters: $mean_label (the group-mean rows' group name, listed right after 'all').
-- Delta is the mean of the three gains (new - old) of NDCG, Recall and Comp at K. oracle marks a
-- sub-query-level run: its sub-queries were made with the ground-truth tool count and
-- documentation (the paper's † rows).
SELECT
    s.run_id,
    r.level,
    r.level = 'subquery' AS oracle,
    r.benchmark,
    s.category AS "group",  -- toolex.reports.main_table.MainRow's name for it
    s.k,
    max(s.n_queries) AS n_queries,
    max(s.n_no_results) AS n_no_results,
    max(CASE WHEN s.metric = 'ndcg' THEN s.old END) AS ndcg_old,
    max(CASE WHEN s.metric = 'ndcg' THEN s.new END) AS ndcg_new,
    max(CASE WHEN s.metric = 'recall' THEN s.old END) AS recall_old,
    max(CASE WHEN s.metric = 'recall' THEN s.new END) AS recall_new,
    max(CASE WHEN s.metric = 'comp' THEN s.old END) AS comp_old,
    max(CASE WHEN s.metric = 'comp' THEN s.new END) AS comp_new,
    avg(CASE WHEN s.metric IN ('ndcg', 'recall', 'comp') THEN s.gain END) AS delta
FROM report_summary AS s
JOIN runs AS r USING (run_id)
GROUP BY s.run_id, r.level, r.benchmark, s.category, s.k
ORDER BY r.benchmark, r.level, s.run_id, s.k,
    CASE s.category WHEN 'all' THEN 0 WHEN $mean_label THEN 1 ELSE 2 END, s.category;
