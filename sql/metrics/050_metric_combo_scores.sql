-- 050 metric_combo_scores(p_run_ids, p_ks, p_expansion): every metric against every combination.
-- Reads: metric_queries (010), metric_combos (020), metric_ideal (030), metric_hits (040).
-- Creates: TEMP table macro metric_combo_scores.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR.
-- Returns: run_id, query_id, task, category, has_results, combo_id, k, ndcg, recall, comp, p, rr,
-- ap (wide: one row per combination; the query's task, category and has_results ride along from
-- metric_queries, so 060 need not expand that macro a second time: 11 of the summary's ~45
-- CPU-ms of planning, paid by every metric call). Relevant = relevance > 0 (trec_eval's
-- default relevance level).
--   NDCG@K   = DCG@K / IDCG@K                   (0 when the combination has no positive label)
--   Recall@K = n_hit / n_rel                    (trec_eval recall_K)
--   Comp@K   = 1 if every relevant item of the combination is in the top K, else 0
--   P@K      = n_hit / K                        (trec_eval P_K: a short list still divides by K)
--   RR@K     = 1 / rank of the first relevant item at rank <= K, else 0 (trec_eval recip_rank
--              when K is beyond the list: toolex.metrics.registry.NO_CUT)
--   AP@K     = sum of precision at the rank of each relevant item at rank <= K, over n_rel
--              (trec_eval map_cut_K)
-- Ones are CAST(1 AS DOUBLE), not 1.0: 1.0 is a DECIMAL on Spark, where 1.0 / 3 is 0.333333
-- and an average of DECIMAL(2,1) keeps five decimals (DuckDB makes both DOUBLE).
CREATE OR REPLACE TEMP MACRO metric_combo_scores(p_run_ids, p_ks, p_expansion) AS TABLE
WITH combos AS (
    SELECT DISTINCT benchmark, query_id, combo_id FROM metric_combos(p_expansion)
), base AS (
    SELECT u.run_id, u.query_id, u.task, u.category, u.has_results, c.benchmark, c.combo_id,
           cut.k
    FROM metric_queries(p_run_ids) AS u
    JOIN combos AS c ON c.benchmark = u.benchmark AND c.query_id = u.query_id
    CROSS JOIN unnest(p_ks) AS cut(k)
)
SELECT b.run_id, b.query_id, b.task, b.category, b.has_results, b.combo_id, b.k,
       coalesce(h.dcg / i.idcg, 0.0) AS ndcg,
       coalesce(h.n_hit / i.n_rel, 0.0) AS recall,
       CASE WHEN i.n_rel > 0 AND h.n_hit = i.n_rel THEN CAST(1 AS DOUBLE)
            ELSE CAST(0 AS DOUBLE) END AS comp,
       coalesce(h.n_hit / b.k, 0.0) AS p,
       coalesce(CAST(1 AS DOUBLE) / h.first_rank, 0.0) AS rr,
       coalesce(h.ap_sum / i.n_rel, 0.0) AS ap
FROM base AS b
LEFT JOIN metric_ideal(p_ks, p_expansion) AS i
  ON i.benchmark = b.benchmark AND i.query_id = b.query_id
 AND i.combo_id = b.combo_id AND i.k = b.k
LEFT JOIN metric_hits(p_run_ids, p_ks, p_expansion) AS h
  ON h.run_id = b.run_id AND h.query_id = b.query_id
 AND h.combo_id = b.combo_id AND h.k = b.k;
