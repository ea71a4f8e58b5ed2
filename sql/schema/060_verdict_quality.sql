-- 060_verdict_quality: verdict labels, and a confidence on every verdict.
-- Reads: nothing. Creates: labels; adds verdicts.confidence. Parameters: none.
-- labels: verdict-level ground truth (sub-query, reference, candidate -> yes/no) made by people,
-- imported from files or from a verdict-level review. Keyed by items and sub-query text, never by
-- row ids, so labels survive re-expansion. subquery and slot may be NULL: such a label is judged
-- with the expansion's sub-query for that reference (toolex/labels/).
CREATE TABLE IF NOT EXISTS labels (
    benchmark    VARCHAR NOT NULL,
    query_id     VARCHAR NOT NULL,
    slot         INTEGER,                      -- NULL: the slot whose reference is `reference`
    subquery     VARCHAR,                      -- NULL: the expansion's sub-query is used
    reference    VARCHAR NOT NULL,             -- item_id of the ground-truth tool of the step
    candidate    VARCHAR NOT NULL,             -- item_id of the tool judged
    label        VARCHAR NOT NULL,             -- yes | no
    labeller     VARCHAR NOT NULL,             -- who, or 'agreed' / 'adjudicated' for a merged set
    note         VARCHAR,
    source       VARCHAR NOT NULL,             -- the label set, e.g. 'toolex-dev-v1' or a file name
    stratum      JSON,                         -- how the item was drawn (part, rank band, ...)
    labelled_at  TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (source, benchmark, query_id, reference, candidate)
);

-- The judge's confidence that the verdict is "yes" (the offline judge's fitted score; for LLM
-- judges the verdict token's probability where the API returns it), NULL when unknown.
ALTER TABLE verdicts ADD COLUMN IF NOT EXISTS confidence DOUBLE;
