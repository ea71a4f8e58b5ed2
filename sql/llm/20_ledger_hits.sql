-- 20_ledger_hits: the answer the ledger serves for each input hash: its newest 'ok' row.
-- Reads: llm_calls. Creates: nothing (a result set input_hash, call_id, parsed).
-- Parameters: $hashes (VARCHAR[]) the input hashes asked about.
-- Failures (error, malformed, pending) are never served: only status = 'ok' rows qualify.
SELECT input_hash, call_id, parsed
FROM (
    SELECT
        input_hash, call_id, parsed,
        row_number() OVER (PARTITION BY input_hash ORDER BY created_at DESC, call_id DESC) AS rn
    FROM llm_calls
    WHERE status = 'ok' AND list_contains($hashes, input_hash)
)
WHERE rn = 1;
