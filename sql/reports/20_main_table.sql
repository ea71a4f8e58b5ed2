-- 20_main_table: the main table, one row per run x category (and 'all') x K.
-- Reads: report_summary (toolex.metrics.summary rows, registered by the report builder), runs.
-- Creates: nothing. Parameters: none.
-- Delta is the mean of the three gains (new - old) of NDCG, Recall and Comp at K.
SELECT
    s.run_id,
    r.level,
    r.benchmark,
    s.category,
    s.k,
    any_value(s.n_queries) AS n_queries,
    any_value(s.n_no_results) AS n_no_results,
    any_value(s.old) FILTER (WHERE s.metric = 'ndcg') AS ndcg_old,
    any_value(s.new) FILTER (WHERE s.metric = 'ndcg') AS ndcg_new,
    any_value(s.old) FILTER (WHERE s.metric = 'recall') AS recall_old,
    any_value(s.new) FILTER (WHERE s.metric = 'recall') AS recall_new,
    any_value(s.old) FILTER (WHERE s.metric = 'comp') AS comp_old,
    any_value(s.new) FILTER (WHERE s.metric = 'comp') AS comp_new,
    avg(s.gain) FILTER (WHERE s.metric IN ('ndcg', 'recall', 'comp')) AS delta
FROM report_summary AS s
JOIN runs AS r USING (run_id)
GROUP BY s.run_id, r.level, r.benchmark, s.category, s.k
ORDER BY r.benchmark, r.level, s.run_id, s.category = 'all' DESC, s.category, s.k;
