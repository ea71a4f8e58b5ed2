-- 43_equivalent_best_rank_rows: the per-query best ranks of 40, one row per run, query and kind,
-- for the equivalent_best_ranks table.
-- Reads: report_best_ranks (40). Creates: nothing. Parameters: none.
SELECT run_id, benchmark, query_id, category, kind, best_rank, depth
FROM report_best_ranks
ORDER BY run_id, query_id, kind
