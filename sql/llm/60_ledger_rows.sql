-- 60_ledger_rows: every attempt in the ledger, oldest first (tests, inspection).
-- Reads: llm_calls. Creates: nothing (a result set of llm_calls rows). Parameters: none.
SELECT *
FROM llm_calls
ORDER BY created_at, call_id;
