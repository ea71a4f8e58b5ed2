-- run_results_rank_order: stored ranks follow trec_eval's order (score DESC, then item_id DESC),
-- 1-based with no gaps or duplicates, within each run and query. The metric macros read `rank`
-- instead of re-sorting, so a run imported with its own ranks must not disagree with its scores.
-- Reads: run_results. Returns the rows whose rank differs from the expected one.
SELECT run_id, query_id, item_id, score, rank, expected_rank
FROM (
    SELECT run_id, query_id, item_id, score, rank,
           row_number() OVER (PARTITION BY run_id, query_id
                              ORDER BY score DESC, item_id DESC) AS expected_rank
    FROM run_results
)
WHERE rank <> expected_rank
ORDER BY run_id, query_id, expected_rank;
