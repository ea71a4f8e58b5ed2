-- 85_trust_thinning: how "new" moves when the accepted equivalents are thinned to the measured
-- precision of the judge that accepted them (a seeded resampling band).
-- Reads: metric_combo_scores (sql/metrics/050), runs, combinations, combination_items, qrels,
-- verdicts, trust_precision (registered by toolex.reports.thinning: benchmark, judge,
-- precision; judge '' stands for members no verdict covers, e.g. imported combinations).
-- Creates: nothing. Parameters: $run_ids VARCHAR[], $k INTEGER, $expansion VARCHAR,
-- $seed INTEGER, $replicates INTEGER, $lo DOUBLE, $hi DOUBLE (band quantiles, e.g. 0.05, 0.95).
-- Returns per run and metric: benchmark, run_id, metric, k, old, new, thinned_lo,
-- thinned_median, thinned_hi (NULL when some equivalent's judge has no measured precision),
-- n_queries, n_equivalents (the accepted non-reference members that were thinned).
-- Replicate r keeps the equivalent (benchmark, query, slot, item) iff
--   u = (hash(concat_ws(':', $seed, 'thin', r, benchmark, query, slot, item)) >> 11) / 2^53 < p,
-- p its judge's precision, so each is dropped with probability 1 - p, independently; a
-- combination survives iff every member that is not its slot's ground-truth item survives, and
-- the original (combo 0) always does. The replicate's new is the macro mean over queries of the
-- best surviving combination (only queries with an equivalent are resampled; the others add
-- their new to every replicate); the band is the $lo..$hi quantiles of the replicates' means.
-- The same u serves every p, so the band rises monotonically with p: at p = 1 it is new, at
-- p = 0 old. It carries the chance of which equivalents are wrong, not the uncertainty of p.
WITH run_bench AS (
    SELECT run_id, benchmark FROM runs WHERE list_contains($run_ids::VARCHAR[], run_id)
),
scores AS MATERIALIZED (
    SELECT s.run_id, b.benchmark, s.query_id, s.combo_id, s.ndcg, s.recall, s.comp
    FROM metric_combo_scores($run_ids::VARCHAR[], [$k::INTEGER], $expansion::VARCHAR) AS s
    JOIN run_bench AS b USING (run_id)
),
members AS MATERIALIZED (
    SELECT ci.benchmark, ci.query_id, ci.combo_id, ci.slot, ci.item_id, p.precision
    FROM combinations AS c
    JOIN combination_items AS ci
      ON ci.benchmark = c.benchmark AND ci.expansion = c.expansion
     AND ci.query_id = c.query_id AND ci.combo_id = c.combo_id
    LEFT JOIN verdicts AS v
      ON v.benchmark = ci.benchmark AND v.expansion = ci.expansion
     AND v.query_id = ci.query_id AND v.slot = ci.slot AND v.item_id = ci.item_id
    LEFT JOIN trust_precision AS p
      ON p.benchmark = ci.benchmark AND p.judge = coalesce(v.judge, '')
    WHERE c.expansion = $expansion AND c.status = 'valid'
      AND c.combo_id <> 0 AND NOT c.is_original
      AND c.benchmark IN (SELECT benchmark FROM run_bench)
      AND NOT EXISTS (
          SELECT 1 FROM qrels AS g
          WHERE g.benchmark = ci.benchmark AND g.query_id = ci.query_id
            AND g.slot = ci.slot AND g.item_id = ci.item_id
      )
),
equivalents AS (
    SELECT DISTINCT benchmark, query_id, slot, item_id, precision FROM members
),
unmeasured AS (
    SELECT DISTINCT benchmark FROM equivalents WHERE precision IS NULL
),
dropped AS (
    SELECT t.r, e.benchmark, e.query_id, e.slot, e.item_id
    FROM equivalents AS e
    CROSS JOIN range($replicates::BIGINT) AS t(r)
    WHERE e.precision IS NOT NULL
      AND (hash(concat_ws(':', $seed, 'thin', t.r, e.benchmark, e.query_id, e.slot, e.item_id))
           >> 11) / 9007199254740992.0 >= e.precision
),
killed AS (
    SELECT DISTINCT d.r, m.benchmark, m.query_id, m.combo_id
    FROM dropped AS d
    JOIN members AS m USING (benchmark, query_id, slot, item_id)
),
touched AS (
    -- queries with an equivalent to thin; every other query keeps its new in every replicate
    SELECT DISTINCT benchmark, query_id FROM members
),
per_query AS (
    SELECT s.run_id, s.benchmark, s.query_id, (t.query_id IS NOT NULL) AS touched,
           max(s.ndcg) FILTER (WHERE s.combo_id = 0) AS ndcg_old, max(s.ndcg) AS ndcg_new,
           max(s.recall) FILTER (WHERE s.combo_id = 0) AS recall_old, max(s.recall) AS recall_new,
           max(s.comp) FILTER (WHERE s.combo_id = 0) AS comp_old, max(s.comp) AS comp_new
    FROM scores AS s
    LEFT JOIN touched AS t ON t.benchmark = s.benchmark AND t.query_id = s.query_id
    GROUP BY s.run_id, s.benchmark, s.query_id, t.query_id
),
means AS (
    SELECT run_id, benchmark,
           avg(ndcg_old) AS ndcg_old, avg(ndcg_new) AS ndcg_new,
           avg(recall_old) AS recall_old, avg(recall_new) AS recall_new,
           avg(comp_old) AS comp_old, avg(comp_new) AS comp_new,
           count(*) AS n_queries,
           coalesce(sum(ndcg_new) FILTER (WHERE NOT touched), 0) AS ndcg_kept,
           coalesce(sum(recall_new) FILTER (WHERE NOT touched), 0) AS recall_kept,
           coalesce(sum(comp_new) FILTER (WHERE NOT touched), 0) AS comp_kept
    FROM per_query
    GROUP BY run_id, benchmark
),
thinned AS (
    -- per replicate, the best surviving combination of each touched query
    SELECT s.run_id, s.benchmark, s.query_id, t.r,
           max(s.ndcg) AS ndcg, max(s.recall) AS recall, max(s.comp) AS comp
    FROM scores AS s
    JOIN touched AS q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
    CROSS JOIN range($replicates::BIGINT) AS t(r)
    WHERE NOT EXISTS (
        SELECT 1 FROM killed AS x
        WHERE x.r = t.r AND x.benchmark = s.benchmark AND x.query_id = s.query_id
          AND x.combo_id = s.combo_id
    )
    GROUP BY s.run_id, s.benchmark, s.query_id, t.r
),
thinned_sums AS (
    SELECT run_id, benchmark, r,
           sum(ndcg) AS ndcg, sum(recall) AS recall, sum(comp) AS comp
    FROM thinned
    GROUP BY run_id, benchmark, r
),
replicates AS (
    SELECT m.run_id, m.benchmark, t.r,
           (m.ndcg_kept + coalesce(x.ndcg, 0)) / m.n_queries AS ndcg,
           (m.recall_kept + coalesce(x.recall, 0)) / m.n_queries AS recall,
           (m.comp_kept + coalesce(x.comp, 0)) / m.n_queries AS comp
    FROM means AS m
    CROSS JOIN range($replicates::BIGINT) AS t(r)
    LEFT JOIN thinned_sums AS x ON x.run_id = m.run_id AND x.benchmark = m.benchmark AND x.r = t.r
    WHERE m.benchmark NOT IN (SELECT benchmark FROM unmeasured)
),
band AS (
    SELECT run_id, benchmark,
           quantile_cont(ndcg, $lo) AS ndcg_lo, quantile_cont(ndcg, 0.5) AS ndcg_mid,
           quantile_cont(ndcg, $hi) AS ndcg_hi,
           quantile_cont(recall, $lo) AS recall_lo, quantile_cont(recall, 0.5) AS recall_mid,
           quantile_cont(recall, $hi) AS recall_hi,
           quantile_cont(comp, $lo) AS comp_lo, quantile_cont(comp, 0.5) AS comp_mid,
           quantile_cont(comp, $hi) AS comp_hi
    FROM replicates
    GROUP BY run_id, benchmark
),
counts AS (
    SELECT benchmark, count(*) AS n_equivalents FROM equivalents GROUP BY benchmark
)
SELECT m.benchmark, m.run_id, x.metric, $k::INTEGER AS k,
       CASE x.metric WHEN 'ndcg' THEN m.ndcg_old WHEN 'recall' THEN m.recall_old
                     ELSE m.comp_old END AS old,
       CASE x.metric WHEN 'ndcg' THEN m.ndcg_new WHEN 'recall' THEN m.recall_new
                     ELSE m.comp_new END AS new,
       CASE x.metric WHEN 'ndcg' THEN b.ndcg_lo WHEN 'recall' THEN b.recall_lo
                     ELSE b.comp_lo END AS thinned_lo,
       CASE x.metric WHEN 'ndcg' THEN b.ndcg_mid WHEN 'recall' THEN b.recall_mid
                     ELSE b.comp_mid END AS thinned_median,
       CASE x.metric WHEN 'ndcg' THEN b.ndcg_hi WHEN 'recall' THEN b.recall_hi
                     ELSE b.comp_hi END AS thinned_hi,
       m.n_queries,
       coalesce(c.n_equivalents, 0) AS n_equivalents
FROM means AS m
LEFT JOIN band AS b ON b.run_id = m.run_id AND b.benchmark = m.benchmark
LEFT JOIN counts AS c ON c.benchmark = m.benchmark
CROSS JOIN (VALUES ('ndcg'), ('recall'), ('comp')) AS x(metric)
ORDER BY m.benchmark, m.run_id, list_position(['ndcg', 'recall', 'comp'], x.metric)
