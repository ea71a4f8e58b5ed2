-- 062_insert_run: register a run produced by `toolex retrieve`.
-- Reads: nothing. Creates: one row in runs.
-- Parameters: $run_id, $benchmark, $level, $retriever, $params (JSON text).
INSERT INTO runs (run_id, benchmark, level, retriever, source, params)
VALUES ($run_id, $benchmark, $level, $retriever, NULL, CAST($params AS JSON))
