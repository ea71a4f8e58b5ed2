-- 21_insert_candidate: one retrieved candidate (or the unretrieved reference at rank K+1).
-- Reads: nothing. Creates: a candidates row. Parameters: $benchmark, $expansion, $query_id,
-- $slot, $item_id, $rank, $score, $retriever.
INSERT INTO candidates (benchmark, expansion, query_id, slot, item_id, rank, score, retriever)
VALUES ($benchmark, $expansion, $query_id, $slot, $item_id, $rank, $score, $retriever)
ON CONFLICT DO NOTHING;
