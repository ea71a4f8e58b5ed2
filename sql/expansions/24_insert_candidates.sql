-- 24_insert_candidates: candidate lists, the pipeline's retrieved ones (stage 2a) and imported
-- ones alike, each with its sub-query's reference (its own rank, or K+1 with no score when the
-- list missed it).
-- Reads: stage_rows (a registered batch of toolex.expansions.CandidateRow: query_id, slot,
-- item_id, rank, score, retriever). Creates: candidates rows. Parameters: $benchmark, $expansion.
INSERT INTO candidates (benchmark, expansion, query_id, slot, item_id, rank, score, retriever)
SELECT $benchmark, $expansion, query_id, slot, item_id, rank, score, retriever FROM stage_rows
ON CONFLICT DO NOTHING;
