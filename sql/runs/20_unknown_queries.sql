-- Reads: run_queries (Arrow table registered by the run import: each distinct query id of the
-- file with its first line and row count), queries.
-- Creates: nothing (rows). Parameters: $benchmark.
-- Query ids of the run file that the benchmark does not have, first occurrence first, so the
-- error can name the line; the row count backs --skip-unknown's report.
SELECT r.query_id, r.line, r.n_rows
FROM run_queries AS r
ANTI JOIN (SELECT query_id FROM queries WHERE benchmark = $benchmark) AS q
    ON q.query_id = r.query_id
ORDER BY r.line;
