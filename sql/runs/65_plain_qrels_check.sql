-- 65_plain_qrels_check: whether the qrels file in plain_lines (61) reads the same in DuckDB as
-- through the reference reader (toolex.loaders.beir.read_qrels), TREC qrels of plain lines.
-- Reads: plain_lines. Creates: nothing. Parameters: none.
-- Returns one row: rows (judgments), odd (lines that are not plain or not 'qid iter docid
-- relevance' with a whole relevance of at most nine digits, or that read_qrels would take
-- otherwise: two tabs make a BEIR line, and a first line naming 'query-id', 'query_id' or 'qid'
-- a header), repeated (a (query, item) pair judged twice, which read_qrels merges with a note).
SELECT count(*) AS rows,
       count(*) FILTER (WHERE NOT plain OR len(fields) <> 4 OR tabs = 2
                        OR NOT regexp_full_match(fields[4], '-?[0-9]{1,9}')
                        OR (line = 1 AND lower(fields[1]) IN ('query-id', 'query_id', 'qid')))
           AS odd,
       count(*) - count(DISTINCT (fields[1], fields[3])) AS repeated
FROM plain_lines;
