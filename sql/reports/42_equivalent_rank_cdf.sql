-- 42_equivalent_rank_cdf: the CDF of the best rank of each kind of tool, per run.
-- Reads: report_best_ranks (40). Creates: nothing. Parameters: none.
-- share(r) = share of the run's queries whose best rank of that kind is <= r, r = 1 .. the
-- deepest rank returned; a tool the run did not return never counts.
WITH grid AS (
    SELECT run_id, unnest(range(1, max(coalesce(depth, 1)) + 1)) AS rank_cutoff
    FROM report_best_ranks
    GROUP BY run_id
),
n AS (
    SELECT run_id, count(DISTINCT query_id) AS n_queries FROM report_best_ranks GROUP BY run_id
)
SELECT
    g.run_id,
    k.kind,
    g.rank_cutoff,
    count(b.query_id) / max(n.n_queries) AS share
FROM grid AS g
CROSS JOIN (VALUES ('gt'), ('equivalent'), ('random')) AS k(kind)
JOIN n USING (run_id)
LEFT JOIN report_best_ranks AS b
  ON b.run_id = g.run_id AND b.kind = k.kind AND b.best_rank <= g.rank_cutoff
GROUP BY g.run_id, k.kind, g.rank_cutoff
ORDER BY g.run_id, k.kind, g.rank_cutoff;
