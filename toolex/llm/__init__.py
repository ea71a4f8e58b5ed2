"""LLM plumbing shared by the LLM judges: provider clients, the call ledger, the concurrent
executor with retries, the providers' batch APIs, prices and the per-stage configuration."""
