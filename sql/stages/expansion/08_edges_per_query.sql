-- 08_edges_per_query: per query of an expansion, its dependent slot pairs and where each came
-- from: explicit edges (loaded with the benchmark, or imported), hand-offs derived from the
-- ground-truth docs, same-platform pairs (--platform-rule strict); before assembly only the
-- explicit edges are known. dependency_unchecked = its combinations whose check could not run.
-- Reads: queries, dependency_edges, dependencies, combinations. Creates: nothing.
-- Parameters: $benchmark, $expansion.
WITH explicit AS (
    SELECT query_id, count(*) FILTER (WHERE source = 'loaded') AS loaded,
           count(*) FILTER (WHERE source = 'imported') AS imported
    FROM dependency_edges WHERE benchmark = $benchmark GROUP BY query_id
),
pairs AS (
    SELECT query_id, count(*) FILTER (WHERE source = 'docs') AS docs,
           count(*) FILTER (WHERE source = 'same_platform') AS same_platform,
           count(*) AS pairs
    FROM dependencies WHERE benchmark = $benchmark AND expansion = $expansion GROUP BY query_id
),
unchecked AS (
    SELECT query_id, count(*) AS n FROM combinations
    WHERE benchmark = $benchmark AND expansion = $expansion AND dependency_check = 'unknown'
      AND status <> 'rejected_platform'
    GROUP BY query_id
)
SELECT q.query_id, q.task,
       coalesce(e.loaded, 0) AS edges_loaded,
       coalesce(e.imported, 0) AS edges_imported,
       coalesce(p.docs, 0) AS derived_from_docs,
       coalesce(p.same_platform, 0) AS same_platform,
       coalesce(p.pairs, 0) AS dependent_pairs,
       coalesce(u.n, 0) AS dependency_unchecked
FROM queries q
LEFT JOIN explicit e ON e.query_id = q.query_id
LEFT JOIN pairs p ON p.query_id = q.query_id
LEFT JOIN unchecked u ON u.query_id = q.query_id
WHERE q.benchmark = $benchmark
  AND (e.query_id IS NOT NULL OR p.query_id IS NOT NULL OR u.query_id IS NOT NULL)
ORDER BY q.query_id;
