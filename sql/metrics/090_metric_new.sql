-- 090 metric_new(p_run_ids, p_ks, p_expansion): equivalence-aware scores, max over the valid
-- combinations of the expansion (formula in 060).
-- Reads: metric_per_query (070). Creates: TEMP table macro metric_new.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR (NULL = old).
-- Returns: run_id, query_id, metric, k, value.
CREATE OR REPLACE TEMP MACRO metric_new(p_run_ids, p_ks, p_expansion) AS TABLE
SELECT run_id, query_id, metric, k, new AS value
FROM metric_per_query(p_run_ids, p_ks, p_expansion);
