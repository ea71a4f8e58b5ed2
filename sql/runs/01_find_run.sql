-- Reads: runs. Creates: nothing (one row or none). Parameters: $run_id.
SELECT run_id, benchmark, level, retriever, source, created_at FROM runs WHERE run_id = $run_id;
