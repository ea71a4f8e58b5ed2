-- 69_pending_counts: per query being assembled, its pending combinations so far (those the
-- dependency rule let through) and the rrf_rank of its budget-th best one (NULL when fewer).
-- Reads: combinations. Creates: nothing (query_id, pending, last_rank).
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]), $budget (INTEGER >= 1).
-- toolex.pipeline.assemble enumerates until each query has `budget` pending combinations or its
-- product is spent: rejected ones do not use the audit budget.
SELECT query_id, count(*) AS pending,
       max(rrf_rank) FILTER (WHERE pos = $budget) AS last_rank
FROM (
    SELECT query_id, rrf_rank,
           row_number() OVER (PARTITION BY query_id ORDER BY rrf_rank) AS pos
    FROM combinations
    WHERE benchmark = $benchmark AND expansion = $expansion AND status = 'pending'
      AND list_contains($query_ids, query_id)
)
GROUP BY query_id
ORDER BY query_id;
