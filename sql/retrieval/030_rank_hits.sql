-- 030_rank_hits: rank raw retriever hits and keep the top $depth per (query_id, slot).
-- Reads: the registered Arrow table retrieval_hits(query_id, slot, item_id, score).
-- Creates: nothing (rows query_id, slot, item_id, score, rank). Parameters: $depth.
-- Rank rule (trec_eval's): score DESC, then item_id DESC; rank is 1-based.
SELECT query_id, slot, item_id, score, rank
FROM (
    SELECT query_id, CAST(slot AS INTEGER) AS slot, item_id, CAST(score AS DOUBLE) AS score,
           CAST(row_number() OVER (PARTITION BY query_id, slot
                                   ORDER BY score DESC, item_id DESC) AS INTEGER) AS rank
    FROM retrieval_hits
)
WHERE rank <= $depth
ORDER BY query_id, slot, rank
