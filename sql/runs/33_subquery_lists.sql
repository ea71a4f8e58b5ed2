-- The per-sub-query lists of one run, shaped as the input of 34_rrf.sql. The
-- lists of a query are its sub-query slots; they fuse into one list per query (slot 0).
-- Reads: subquery_results. Creates: nothing (rows query_id, slot, list_id, item_id, rank).
-- Parameters: $run_id.
SELECT query_id, CAST(0 AS INTEGER) AS slot, slot AS list_id, item_id, rank
FROM subquery_results
WHERE run_id = $run_id
ORDER BY query_id, list_id, rank;
