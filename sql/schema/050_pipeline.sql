-- 050_pipeline: bookkeeping of the expansion pipeline that the base model does not hold.
-- Reads: nothing. Creates: stage_failures, dependencies. Parameters: none.
-- stage_failures: tasks whose outcome was a failure (wrong k, leaked name, unknown tool, LLM
-- error). A plain re-run skips them, `--retry-failed` retries them; success deletes the row.
-- The LLM ledger (llm_calls) keeps every attempt; this table is the per-task summary, and the
-- only failure record for judges that make no calls.
CREATE TABLE IF NOT EXISTS stage_failures (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    stage       VARCHAR NOT NULL,             -- decompose | verify | audit
    task_key    VARCHAR NOT NULL,             -- the judge task key
    error       VARCHAR NOT NULL,
    call_id     VARCHAR,
    attempts    INTEGER NOT NULL DEFAULT 1,
    failed_at   TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (benchmark, expansion, stage, task_key)
);

-- dependencies: pairs of slots of the ORIGINAL combination whose tools must share a platform in
-- every alternative (one step's output feeds the other, or the original pair shares a provider).
-- slot_a < slot_b; decided deterministically from the ground-truth docs by
-- toolex/pipeline/platform_rule.py before any audit call.
CREATE TABLE IF NOT EXISTS dependencies (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    slot_a      INTEGER NOT NULL,
    slot_b      INTEGER NOT NULL,
    reason      VARCHAR NOT NULL,
    PRIMARY KEY (benchmark, expansion, query_id, slot_a, slot_b)
);
