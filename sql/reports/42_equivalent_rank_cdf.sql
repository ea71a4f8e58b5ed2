-- 42_equivalent_rank_cdf: the CDF of the best rank of each kind of tool, per run.
-- Reads: report_best_ranks (40). Creates: nothing. Parameters: none.
-- share(r) = share of the run's queries whose best rank of that kind is <= r, r = 1 .. the
-- deepest rank returned; a tool the run did not return never counts. The random tool's share
-- is of the queries 40 drew one for.
WITH grid AS (
    SELECT run_id, unnest(range(1, max(coalesce(depth, 1)) + 1)) AS rank_cutoff
    FROM report_best_ranks
    GROUP BY run_id
),
n AS (
    SELECT run_id, kind, count(DISTINCT query_id) AS n_queries FROM report_best_ranks
    GROUP BY run_id, kind
)
SELECT
    g.run_id,
    k.kind,
    g.rank_cutoff,
    count(b.query_id) / max(n.n_queries) AS share
FROM grid AS g
CROSS JOIN (VALUES ('gt'), ('equivalent'), ('random')) AS k(kind)
JOIN n ON n.run_id = g.run_id AND n.kind = k.kind
LEFT JOIN report_best_ranks AS b
  ON b.run_id = g.run_id AND b.kind = k.kind AND b.best_rank <= g.rank_cutoff
GROUP BY g.run_id, k.kind, g.rank_cutoff
ORDER BY g.run_id, k.kind, g.rank_cutoff;
