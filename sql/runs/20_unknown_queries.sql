-- Reads: new_results (Arrow table registered by the run import), queries.
-- Creates: nothing (rows). Parameters: $benchmark.
-- Query ids of the run file that the benchmark does not have, first occurrence first, so the
-- error can name the line; the row count backs --skip-unknown's report.
SELECT r.query_id, min(r.line) AS line, count(*) AS n_rows
FROM new_results AS r
ANTI JOIN (SELECT query_id FROM queries WHERE benchmark = $benchmark) AS q
    ON q.query_id = r.query_id
GROUP BY r.query_id
ORDER BY line;
