-- 63_plain_insert_run: the runs row of a run file scored in place (toolex.runs.plain), as
-- toolex.runs.imports writes it (30_insert_run.sql): imported, query level.
-- Reads: nothing. Creates: one runs row. Parameters: $run_id, $benchmark, $source, $params.
INSERT INTO runs (run_id, benchmark, level, retriever, source, params)
VALUES ($run_id, $benchmark, 'query', NULL, $source, CAST($params AS JSON));
