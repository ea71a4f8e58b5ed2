-- 40_equivalent_best_ranks: where the equivalents rank, per run and query.
-- Reads: runs, queries, qrels, verdicts, candidates, items, run_results.
-- Creates: TEMP TABLE report_best_ranks (run_id, benchmark, query_id, category, kind, best_rank,
-- depth), kind in gt | equivalent | random; best_rank NULL when the run did not return any such
-- tool (it ranks below the run's depth). A query whose draw found no tool has no random row.
-- Parameters: $run_ids VARCHAR[], $expansion VARCHAR, $seed INTEGER, $random_from VARCHAR
-- ('pool' | 'library').
-- Only queries with at least one verified equivalent (an accepted verdict for a tool outside the
-- ground truth) take part. The random tool is one non-equivalent, non-ground-truth tool drawn
-- per query by the smallest hash(concat_ws(':', $seed, query, item)) (DuckDB's multi-argument
-- hash XORs its arguments' hashes, which correlates draws; one hash of the joined string does
-- not), from
-- * 'pool' (the default; the paper does not say where it draws its random tool): the query's
--   candidate pool, the candidates the expansion retrieved for its sub-queries: a tool the
--   candidate retriever found relevant enough to show the verifier, so its share in a run's top
--   K compares with the equivalents';
-- * 'library': the query's whole library (same task, or a pooled library): almost never in a
--   top 10 of thousands, so its share there is near 0 and says little.
CREATE OR REPLACE TEMP TABLE report_best_ranks AS
WITH rq AS (
    SELECT r.run_id, r.benchmark, q.query_id, coalesce(q.category, '(none)') AS category, q.task
    FROM runs AS r
    JOIN queries AS q USING (benchmark)
    WHERE list_contains($run_ids::VARCHAR[], r.run_id)
),
equiv AS (
    SELECT DISTINCT v.benchmark, v.query_id, v.item_id
    FROM verdicts AS v
    WHERE v.expansion = $expansion AND v.accepted
      AND NOT EXISTS (
          SELECT 1 FROM qrels AS g
          WHERE g.benchmark = v.benchmark AND g.query_id = v.query_id AND g.item_id = v.item_id)
),
eq_queries AS (
    SELECT DISTINCT e.benchmark, e.query_id, q.task
    FROM equiv AS e
    JOIN queries AS q USING (benchmark, query_id)
    WHERE e.benchmark IN (SELECT benchmark FROM rq)
),
drawable AS (
    SELECT e.benchmark, e.query_id, i.item_id
    FROM eq_queries AS e
    JOIN items AS i
      ON i.benchmark = e.benchmark AND (i.task IS NULL OR e.task IS NULL OR i.task = e.task)
    WHERE $random_from = 'library'
    UNION
    SELECT e.benchmark, e.query_id, c.item_id
    FROM eq_queries AS e
    JOIN candidates AS c
      ON c.benchmark = e.benchmark AND c.expansion = $expansion AND c.query_id = e.query_id
    WHERE $random_from = 'pool'
),
random_pick AS (
    SELECT d.benchmark, d.query_id, arg_min(d.item_id, hash(concat_ws(':', $seed, d.query_id, d.item_id))) AS item_id
    FROM drawable AS d
    WHERE NOT EXISTS (
            SELECT 1 FROM qrels AS g
            WHERE g.benchmark = d.benchmark AND g.query_id = d.query_id AND g.item_id = d.item_id)
      AND NOT EXISTS (
            SELECT 1 FROM equiv AS x
            WHERE x.benchmark = d.benchmark AND x.query_id = d.query_id AND x.item_id = d.item_id)
    GROUP BY d.benchmark, d.query_id
),
members AS (
    SELECT benchmark, query_id, 'gt' AS kind, item_id FROM qrels
    UNION ALL
    SELECT benchmark, query_id, 'equivalent' AS kind, item_id FROM equiv
    UNION ALL
    SELECT benchmark, query_id, 'random' AS kind, item_id FROM random_pick
),
depth AS (
    SELECT run_id, query_id, max(rank) AS depth
    FROM run_results
    WHERE list_contains($run_ids::VARCHAR[], run_id)
    GROUP BY run_id, query_id
)
SELECT
    rq.run_id,
    rq.benchmark,
    rq.query_id,
    rq.category,
    m.kind,
    min(rr.rank) AS best_rank,
    max(d.depth) AS depth
FROM rq
JOIN eq_queries AS e USING (benchmark, query_id)
JOIN members AS m USING (benchmark, query_id)
LEFT JOIN run_results AS rr
  ON rr.run_id = rq.run_id AND rr.query_id = rq.query_id AND rr.item_id = m.item_id
LEFT JOIN depth AS d ON d.run_id = rq.run_id AND d.query_id = rq.query_id
GROUP BY rq.run_id, rq.benchmark, rq.query_id, rq.category, m.kind;
