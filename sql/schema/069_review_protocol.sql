-- 069_review_protocol: how a review sample is shown to its reviewers, recorded with it.
-- Reads: nothing. Creates: review_protocols. Parameters: none.
-- show_rationale: the reviewers see the judge's rationale (its verdict, reason and confidence;
-- for a combination, the audit's) beside the documentations, as the paper's annotators saw the
-- model's; false (the default, and every sample drawn before this schema) keeps them blind to
-- it. A label's meaning depends on it, so it is fixed when the sample is drawn.
CREATE TABLE IF NOT EXISTS review_protocols (
    sample_id       VARCHAR PRIMARY KEY,
    show_rationale  BOOLEAN NOT NULL
);
