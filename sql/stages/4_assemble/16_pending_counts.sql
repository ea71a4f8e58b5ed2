-- 16_pending_counts: per query being assembled, its pending combinations so far (those the
-- dependency rule let through, never more than the budget: 13 cuts each batch at it).
-- Reads: assembled_combinations (08: the group's batches so far). Creates: nothing (query_id,
-- pending). Parameters: none.
-- toolex.pipeline.assemble enumerates until each query has `budget` pending combinations or its
-- product is spent: rejected ones do not use the audit budget.
SELECT query_id, count(*) AS pending
FROM assembled_combinations
WHERE status = 'pending'
GROUP BY query_id
ORDER BY query_id;
