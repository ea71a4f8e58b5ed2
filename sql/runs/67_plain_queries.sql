-- 67_plain_queries: one query per judged query id of the qrels file in plain_lines (61, checked
-- by 65), as toolex.runs.direct.qrels_benchmark makes them (the id is the text; no task,
-- category or instruction), in the order of their first judgment.
-- Reads: plain_lines. Creates: TEMP TABLE queries, a connection-local stand-in.
-- Parameters: $benchmark.
CREATE TEMP TABLE queries AS
SELECT CAST($benchmark AS VARCHAR) AS benchmark, query_id, CAST(NULL AS VARCHAR) AS task,
       CAST(NULL AS VARCHAR) AS category, query_id AS text, CAST(NULL AS VARCHAR) AS instruction
FROM (SELECT fields[1] AS query_id, min(line) AS first FROM plain_lines GROUP BY fields[1])
ORDER BY first;
