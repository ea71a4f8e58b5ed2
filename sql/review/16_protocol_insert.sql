-- 16_protocol_insert: record how a new sample is shown (schema 069), in the draw's transaction.
-- Reads: nothing. Creates: the review_protocols row of the sample.
-- Parameters: $sample_id, $show_rationale BOOLEAN.
INSERT INTO review_protocols (sample_id, show_rationale) VALUES ($sample_id, $show_rationale);
