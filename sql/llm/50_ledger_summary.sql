-- 50_ledger_summary: attempts, tokens and cost per stage, judge and status.
-- Reads: llm_calls. Creates: nothing (a result set). Parameters: none.
SELECT stage, judge, status, count(*) AS attempts,
       sum(prompt_tokens) AS prompt_tokens, sum(completion_tokens) AS completion_tokens,
       sum(cost_usd) AS cost_usd, avg(latency_ms) AS avg_latency_ms
FROM llm_calls
GROUP BY ALL
ORDER BY stage, judge, status;
