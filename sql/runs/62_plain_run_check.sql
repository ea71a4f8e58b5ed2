-- 62_plain_run_check: whether the run file in plain_lines (61) reads the same in DuckDB as
-- through the reference reader (toolex.runs.trec), and what the import would say of it.
-- Reads: plain_lines, queries. Creates: nothing. Parameters: $benchmark.
-- Returns one row: rows (results), odd (lines that are not plain, not six fields, or whose score
-- is not of trec_eval's grammar, not finite, or a negative zero), repeated (an item listed twice
-- for a query), unknown_rows and unknown_queries (results of query ids the labels lack).
-- A score of the grammar (toolex.runs.trec._SCORE_RE) casts to the same double as Python's
-- float() (both round correctly; tests/runs/test_plain.py compares); -0 is left to the
-- reference reader, whose sort may order it apart from 0.
WITH rows AS (
    SELECT line, plain, fields, fields[1] AS query_id, fields[3] AS item_id,
           CASE WHEN regexp_full_match(fields[5], '[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?')
                THEN TRY_CAST(fields[5] AS DOUBLE) END AS score,
           starts_with(fields[5], '-') AS negative
    FROM plain_lines
)
SELECT count(*) AS rows,
       count(*) FILTER (WHERE NOT plain OR len(fields) <> 6 OR score IS NULL OR NOT isfinite(score)
                        OR (score = 0 AND negative)) AS odd,
       count(*) - count(DISTINCT (query_id, item_id)) AS repeated,
       count(*) FILTER (WHERE query_id NOT IN (SELECT query_id FROM queries
                                               WHERE benchmark = $benchmark)) AS unknown_rows,
       count(DISTINCT query_id) FILTER (WHERE query_id NOT IN (
           SELECT query_id FROM queries WHERE benchmark = $benchmark)) AS unknown_queries
FROM rows;
