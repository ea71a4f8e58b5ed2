-- Reads: nothing. Creates: one runs row. Parameters: $run_id, $benchmark, $level, $retriever,
-- $source, $params (JSON text).
INSERT INTO runs (run_id, benchmark, level, retriever, source, params)
VALUES ($run_id, $benchmark, $level, $retriever, $source, CAST($params AS JSON));
