-- 02_insert_candidate: retrieved candidates (and unretrieved references at rank K+1).
-- Reads: stage_rows (a registered batch: query_id, slot, item_id, rank, score, retriever).
-- Creates: candidates rows. Parameters: $benchmark, $expansion.
INSERT INTO candidates (benchmark, expansion, query_id, slot, item_id, rank, score, retriever)
SELECT $benchmark, $expansion, query_id, slot, item_id, rank, score, retriever FROM stage_rows
ON CONFLICT DO NOTHING;
