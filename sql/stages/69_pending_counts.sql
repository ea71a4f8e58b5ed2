-- 69_pending_counts: per query being assembled, its pending combinations so far (those the
-- dependency rule let through) and the rrf_rank of its budget-th best one (NULL when fewer).
-- Reads: assembled_combinations (71: the group's rounds so far). Creates: nothing (query_id,
-- pending, last_rank). Parameters: $budget (INTEGER >= 1).
-- toolex.pipeline.assemble enumerates until each query has `budget` pending combinations or its
-- product is spent: rejected ones do not use the audit budget.
SELECT query_id, count(*) AS pending,
       max(rrf_rank) FILTER (WHERE pos = $budget) AS last_rank
FROM (
    SELECT query_id, rrf_rank,
           row_number() OVER (PARTITION BY query_id ORDER BY rrf_rank) AS pos
    FROM assembled_combinations
    WHERE status = 'pending'
)
GROUP BY query_id
ORDER BY query_id;
