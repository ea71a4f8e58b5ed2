-- 010 metric_queries(p_run_ids): the queries each run is scored on.
-- Reads: runs, qrels, queries, run_results. Creates: TEMP table macro metric_queries.
-- Parameters: p_run_ids VARCHAR[] (runs to score).
-- Returns: run_id, benchmark, query_id, task, category, has_results.
-- Every query with judgments in the run's benchmark is scored, whether or not the run returned
-- anything for it (trec_eval -c semantics): a query the retriever skipped scores 0, it does not
-- vanish from the mean. has_results lets reports count those queries (n_no_results); it looks
-- for the rank-1 row (one per answered query, see sql/checks/run_results_rank_order.sql) instead
-- of a DISTINCT over every result, which was the costliest step on 100-deep runs.
-- Every table is cut to the runs asked for before it is joined (issue 11): scoring 10 runs
-- costs the same whether the store holds them alone or among 50.
CREATE OR REPLACE TEMP MACRO metric_queries(p_run_ids) AS TABLE
SELECT r.run_id, r.benchmark, j.query_id, q.task, q.category,
       (seen.query_id IS NOT NULL) AS has_results
FROM (SELECT run_id, benchmark FROM runs WHERE list_contains(p_run_ids, run_id)) AS r
JOIN (SELECT DISTINCT benchmark, query_id FROM qrels) AS j ON j.benchmark = r.benchmark
LEFT JOIN queries AS q ON q.benchmark = j.benchmark AND q.query_id = j.query_id
LEFT JOIN (SELECT run_id, query_id FROM run_results
           WHERE rank = 1 AND list_contains(p_run_ids, run_id)) AS seen
       ON seen.run_id = r.run_id AND seen.query_id = j.query_id;
