-- 64_plain_insert_run_results: the ranked results of the run file in plain_lines (61), checked
-- plain by 62, as 31_insert_run_results.sql stores an import's.
-- Reads: plain_lines, queries. Creates: run_results rows of one run.
-- Parameters: $run_id, $benchmark.
-- Rank is trec_eval's rule as toolex.runs.write.ranked applies it (score descending, ties by
-- item_id descending, 1-based, per query), before the rows of queries the labels lack are
-- dropped; rows go in the order ranked() hands them over (query id, then rank).
INSERT INTO run_results (run_id, query_id, item_id, score, rank)
SELECT $run_id, query_id, item_id, score, rank
FROM (
    SELECT query_id, item_id, score,
           row_number() OVER (PARTITION BY query_id ORDER BY score DESC, item_id DESC) AS rank
    FROM (SELECT fields[1] AS query_id, fields[3] AS item_id,
                 CAST(fields[5] AS DOUBLE) AS score
          FROM plain_lines)
)
SEMI JOIN (SELECT query_id FROM queries WHERE benchmark = $benchmark) AS q USING (query_id)
ORDER BY query_id, rank;
