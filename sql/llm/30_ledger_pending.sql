-- 30_ledger_pending: batch requests submitted but not yet collected, by input hash.
-- Reads: llm_calls. Creates: nothing (a result set input_hash, call_id, batch_id, attempt).
-- Parameters: $hashes (VARCHAR[]) the input hashes asked about.
SELECT input_hash, call_id, batch_id, attempt
FROM llm_calls
WHERE status = 'pending' AND list_contains($hashes, input_hash)
ORDER BY created_at;
