-- 040 metric_hits(p_run_ids, p_ks, p_expansion): what each run found of each combination.
-- Reads: runs, run_results, metric_combos (020). Creates: TEMP table macro metric_hits.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR.
-- Returns: run_id, query_id, combo_id, k, dcg, n_hit.
-- DCG@K = sum over retrieved items at rank <= K of rel / log2(rank + 1); n_hit = relevant items
-- retrieved at rank <= K. rank is the stored trec_eval rank (score DESC, item_id DESC). Only the
-- top max(K) results are joined, which keeps the join small on 100-deep runs.
CREATE OR REPLACE TEMP MACRO metric_hits(p_run_ids, p_ks, p_expansion) AS TABLE
SELECT r.run_id, r.query_id, c.combo_id, cut.k,
       sum(c.relevance / log2(r.rank + 1)) AS dcg,
       count(*) AS n_hit
FROM run_results AS r
JOIN runs AS run ON run.run_id = r.run_id
JOIN metric_combos(p_expansion) AS c
  ON c.benchmark = run.benchmark AND c.query_id = r.query_id AND c.item_id = r.item_id
JOIN unnest(p_ks) AS cut(k) ON r.rank <= cut.k
WHERE list_contains(p_run_ids, r.run_id)
  AND r.rank <= list_max(p_ks)
  AND c.relevance > 0
GROUP BY r.run_id, r.query_id, c.combo_id, cut.k;
