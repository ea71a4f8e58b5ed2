-- 40_ledger_settle: record the result of a batch request that was written as 'pending'.
-- Reads: nothing. Updates: one llm_calls row (the pending attempt becomes ok/malformed/error).
-- Parameters: $call_id, $status, $error, $response, $parsed, $prompt_tokens,
-- $completion_tokens, $cost_usd, $latency_ms.
UPDATE llm_calls
SET status = $status, error = $error, response = $response, parsed = $parsed,
    prompt_tokens = $prompt_tokens, completion_tokens = $completion_tokens,
    cost_usd = $cost_usd, latency_ms = $latency_ms
WHERE call_id = $call_id AND status = 'pending';
