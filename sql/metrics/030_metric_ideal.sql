-- 030 metric_ideal(p_ks, p_expansion): ideal DCG and relevant count of every valid combination.
-- Reads: metric_combos (020). Creates: TEMP table macro metric_ideal.
-- Parameters: p_ks INTEGER[] (cut-offs K), p_expansion VARCHAR.
-- Returns: benchmark, query_id, combo_id, k, idcg, n_rel.
-- As trec_eval's ndcg_cut: IDCG@K = sum_{i=1..min(K,R)} rel_(i) / log2(i + 1) over the positive
-- labels sorted descending; n_rel = R = number of items with relevance > 0 (recall's denominator).
-- Combinations without any positive label produce no row (their scores are 0).
CREATE OR REPLACE TEMP MACRO metric_ideal(p_ks, p_expansion) AS TABLE
WITH ranked AS (
    SELECT benchmark, query_id, combo_id, relevance,
           row_number() OVER (PARTITION BY benchmark, query_id, combo_id
                              ORDER BY relevance DESC) AS pos
    FROM metric_combos(p_expansion)
    WHERE relevance > 0
)
SELECT benchmark, query_id, combo_id, cut.k,
       sum(CASE WHEN pos <= cut.k THEN relevance / log2(pos + 1) ELSE 0 END) AS idcg,
       count(*) AS n_rel
FROM ranked
CROSS JOIN unnest(p_ks) AS cut(k)
GROUP BY benchmark, query_id, combo_id, cut.k;
