-- 68_plain_qrels: the judgments of the qrels file in plain_lines (61, checked by 65), as
-- toolex.runs.direct.qrels_benchmark stores them: every relevance kept (<= 0: judged not
-- relevant), slot = the judgment's place among its query's, in file order.
-- Reads: plain_lines. Creates: TEMP TABLE qrels, a connection-local stand-in.
-- Parameters: $benchmark.
CREATE TEMP TABLE qrels AS
SELECT CAST($benchmark AS VARCHAR) AS benchmark, fields[1] AS query_id, fields[3] AS item_id,
       CAST(fields[4] AS INTEGER) AS relevance,
       CAST(row_number() OVER (PARTITION BY fields[1] ORDER BY line) - 1 AS INTEGER) AS slot
FROM plain_lines
ORDER BY line;
