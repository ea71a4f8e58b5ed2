-- 040 metric_hits(p_run_ids, p_ks, p_expansion): what each run found of each combination.
-- Reads: runs, run_results, metric_combos (020). Creates: TEMP table macro metric_hits.
-- Parameters: p_run_ids VARCHAR[], p_ks INTEGER[], p_expansion VARCHAR.
-- Returns: run_id, query_id, combo_id, k, dcg, n_hit, ap_sum, first_rank.
-- DCG@K = sum over retrieved items at rank <= K of rel / log2(rank + 1); n_hit = relevant items
-- retrieved at rank <= K; ap_sum = sum over those hits of precision at their rank (hit_pos /
-- rank, hit_pos = the hit's position among the hits, as trec_eval's map); first_rank = the rank
-- of the first hit (recip_rank). rank is the stored trec_eval rank (score DESC, item_id DESC).
-- Only the top max(K) results of the runs asked for are joined (cut before the join, so the
-- cost follows the runs scored, not the runs stored: issue 11), and the (few) hits are fanned
-- out over the cut-offs afterwards: the materialized CTE stops the optimiser from crossing
-- every result with every K. The cut-offs join as CROSS JOIN + WHERE, not JOIN .. ON: sqlglot
-- writes the latter as Spark's LATERAL VIEW and drops its ON (toolex.engines.dialects).
CREATE OR REPLACE TEMP MACRO metric_hits(p_run_ids, p_ks, p_expansion) AS TABLE
WITH hit AS MATERIALIZED (
    SELECT r.run_id, r.query_id, c.combo_id, r.rank, c.relevance,
           row_number() OVER (PARTITION BY r.run_id, r.query_id, c.combo_id
                              ORDER BY r.rank) AS hit_pos
    FROM (SELECT run_id, query_id, item_id, rank FROM run_results
          WHERE list_contains(p_run_ids, run_id) AND rank <= list_max(p_ks)) AS r
    JOIN (SELECT run_id, benchmark FROM runs WHERE list_contains(p_run_ids, run_id)) AS run
      ON run.run_id = r.run_id
    JOIN metric_combos(p_expansion) AS c
      ON c.benchmark = run.benchmark AND c.query_id = r.query_id AND c.item_id = r.item_id
    WHERE c.relevance > 0
)
SELECT hit.run_id, hit.query_id, hit.combo_id, cut.k,
       sum(hit.relevance / log2(hit.rank + 1)) AS dcg,
       count(*) AS n_hit,
       sum(hit.hit_pos / hit.rank) AS ap_sum,
       min(hit.rank) AS first_rank
FROM hit
CROSS JOIN unnest(p_ks) AS cut(k)
WHERE hit.rank <= cut.k
GROUP BY hit.run_id, hit.query_id, hit.combo_id, cut.k;
