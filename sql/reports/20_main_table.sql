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
ORDER BY r.benchmark, r.level, s.run_id, s.category = 'all' DESC, s.category, s.k;
