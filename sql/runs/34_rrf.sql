-- Reciprocal Rank Fusion of ranked lists, the one RRF of toolex (toolex/runs/rrf.py).
-- Reads: the registered Arrow table rrf_lists(query_id, slot, list_id, item_id, rank): one row per
-- (list, item), rank 1-based within its list; the lists of one (query_id, slot) fuse into one.
-- Creates: nothing (rows query_id, slot, item_id, score, rank).
-- Parameters: $rrf_k (the RRF constant, RRF_K = 60); $depth (items kept per (query_id, slot)
-- after fusion; NULL keeps every item any list holds).
-- score(item) = sum over the lists holding it of 1 / ($rrf_k + rank) (Cormack et al., SIGIR 2009;
-- ranx's `rrf`). Terms are added in rank order, so items holding the same ranks get the same score
-- to the last bit and the tie rule decides, not the summation order: score DESC, then item_id DESC.
SELECT query_id, slot, item_id, score, rank
FROM (
    SELECT query_id, slot, item_id, score,
           CAST(row_number() OVER (PARTITION BY query_id, slot
                                   ORDER BY score DESC, item_id DESC) AS INTEGER) AS rank
    FROM (
        SELECT query_id, CAST(slot AS INTEGER) AS slot, item_id,
               CAST(sum(1.0 / ($rrf_k + rank) ORDER BY rank) AS DOUBLE) AS score
        FROM rrf_lists
        GROUP BY query_id, slot, item_id
    )
)
WHERE $depth IS NULL OR rank <= $depth
ORDER BY query_id, slot, rank;
