-- 061_judge_evaluations: what `toolex judges eval` measured, so stats, eval and report can say how
-- far each expansion's judges are to be trusted.
-- Reads: nothing. Creates: judge_evaluations. Parameters: none.
-- One row per (judge, stage, label source, benchmark scope) evaluation; a re-evaluation replaces
-- it. benchmark '*' = every benchmark of the label source. Intervals are 95% Wilson.
CREATE TABLE IF NOT EXISTS judge_evaluations (
    judge          VARCHAR NOT NULL,            -- judge spec, e.g. 'heuristic', 'openai:gpt-4o-mini'
    stage          VARCHAR NOT NULL,            -- verify | audit
    source         VARCHAR NOT NULL,            -- label source, e.g. 'toolex-dev-v1' or a review sample
    benchmark      VARCHAR NOT NULL,            -- a benchmark, or '*' for all of the source
    n              INTEGER NOT NULL,
    tp             INTEGER NOT NULL,
    fp             INTEGER NOT NULL,
    fn             INTEGER NOT NULL,
    tn             INTEGER NOT NULL,
    precision      DOUBLE,
    precision_lo   DOUBLE,
    precision_hi   DOUBLE,
    recall         DOUBLE,
    recall_lo      DOUBLE,
    recall_hi      DOUBLE,
    kappa          DOUBLE,
    evaluated_at   TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (judge, stage, source, benchmark)
);
