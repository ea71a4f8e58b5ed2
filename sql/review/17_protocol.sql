-- 17_protocol: how a sample is shown to its reviewers (schema 069); no row = blind (a sample
-- drawn before the protocol was recorded).
-- Reads: review_protocols. Creates: nothing (show_rationale, or no row). Parameters: $sample_id.
SELECT show_rationale FROM review_protocols WHERE sample_id = $sample_id;
