-- 062_verdict_review: the verdict level of the human validation protocol.
-- Reads: nothing. Creates: review_verdict_draws, review_verdict_strata, review_verdict_samples,
-- review_verdict_labels. Parameters: none.
-- A verdict-level sample holds (sub-query, reference, candidate) triples drawn by
-- toolex/review/sample.py over three parts: the judge's accepted verdicts, its rejected
-- verdicts, and retrieved-but-unjudged candidates (the recall side). Everything a label's meaning
-- depends on (the sub-query text, the judge's verdict = part, the retrieval rank) is copied at
-- draw time, so a re-expansion cannot change what was labelled. Final labels are also written to
-- `labels` (source = sample_id) for `toolex judges eval`.

-- One row per sample: how it was drawn (reproducible from these and the store).
CREATE TABLE IF NOT EXISTS review_verdict_draws (
    sample_id   VARCHAR PRIMARY KEY,
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    seed        INTEGER NOT NULL,
    size        INTEGER NOT NULL,             -- the size asked for (drawn may be smaller)
    order_by    VARCHAR NOT NULL,             -- random | uncertainty (presentation order)
    retriever   VARCHAR,                      -- spec searched for the unjudged part, NULL if none
    depth       INTEGER,                      -- the expansion's candidate depth
    beyond      INTEGER NOT NULL,             -- ranks searched past depth (0 = stored only)
    scope       VARCHAR,
    drawn_at    TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Population and draw per stratum (part x query category x rank band): the weights of the
-- recall estimate (toolex/review/stats.py).
CREATE TABLE IF NOT EXISTS review_verdict_strata (
    sample_id   VARCHAR NOT NULL,
    stratum     VARCHAR NOT NULL,             -- part/category/rank_band
    part        VARCHAR NOT NULL,             -- accepted | rejected | unjudged
    category    VARCHAR NOT NULL,
    rank_band   VARCHAR NOT NULL,             -- 1-3 | 4-10 | 11-20 | 21+ | unranked
    population  INTEGER NOT NULL,
    drawn       INTEGER NOT NULL,
    PRIMARY KEY (sample_id, stratum)
);

CREATE TABLE IF NOT EXISTS review_verdict_samples (
    sample_id   VARCHAR NOT NULL,
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    slot        INTEGER NOT NULL,
    item_id     VARCHAR NOT NULL,             -- the candidate judged
    reference   VARCHAR NOT NULL,             -- the slot's ground-truth item
    subquery    VARCHAR NOT NULL,             -- the sub-query text at draw time
    part        VARCHAR NOT NULL,             -- the judge's verdict at draw time, or unjudged
    category    VARCHAR NOT NULL,
    rank        INTEGER,                      -- retrieval rank of the candidate, NULL if unknown
    rank_band   VARCHAR NOT NULL,
    stratum     VARCHAR NOT NULL,
    position    INTEGER NOT NULL,             -- order shown to reviewers
    seed        INTEGER NOT NULL,
    PRIMARY KEY (sample_id, benchmark, expansion, query_id, slot, item_id)
);

CREATE TABLE IF NOT EXISTS review_verdict_labels (
    sample_id   VARCHAR NOT NULL,
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    slot        INTEGER NOT NULL,
    item_id     VARCHAR NOT NULL,
    role        VARCHAR NOT NULL,             -- reviewer1 | reviewer2 | adjudicator
    reviewer    VARCHAR NOT NULL,
    label       VARCHAR NOT NULL,             -- yes | no
    bucket      VARCHAR,                      -- failure bucket of a no (toolex.review.levels)
    note        VARCHAR,
    labelled_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (sample_id, benchmark, expansion, query_id, slot, item_id, role)
);
