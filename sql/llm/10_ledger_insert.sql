-- 10_ledger_insert: append finished attempts to the LLM call ledger.
-- Reads: ledger_batch (an Arrow table of attempts the caller registers on its cursor; binding a
-- whole batch as one relation commits a burst of calls in one statement). Writes: llm_calls rows.
-- Parameters: none (the values arrive in ledger_batch, never formatted into SQL).
INSERT INTO llm_calls (
    call_id, stage, judge, model, prompt_version, input_hash, task_key, status, error,
    response, parsed, prompt_tokens, completion_tokens, latency_ms, cost_usd, attempt,
    batch_id, created_at
)
SELECT
    call_id, stage, judge, model, prompt_version, input_hash, task_key, status, error,
    response, CAST(parsed AS JSON), prompt_tokens, completion_tokens, latency_ms, cost_usd,
    attempt, batch_id, created_at
FROM ledger_batch;
