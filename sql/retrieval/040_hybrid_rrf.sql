-- 040_hybrid_rrf: fuse the ranked lists of several retrievers with Reciprocal Rank Fusion.
-- Reads: the registered Arrow table retrieval_lists(list_id, query_id, slot, item_id, rank).
-- Creates: nothing (rows query_id, slot, item_id, score, rank). Parameters: $rrf_k, $k.
-- score(item) = sum over lists of 1 / ($rrf_k + rank), ranks 1-based (Cormack et al., SIGIR 2009;
-- ranx's `rrf`); an item absent from a list contributes nothing for it.
-- Ties: score DESC, then item_id DESC.
SELECT query_id, slot, item_id, score, rank
FROM (
    SELECT query_id, slot, item_id, score,
           CAST(row_number() OVER (PARTITION BY query_id, slot
                                   ORDER BY score DESC, item_id DESC) AS INTEGER) AS rank
    FROM (
        SELECT query_id, slot, item_id, sum(1.0 / ($rrf_k + rank)) AS score
        FROM retrieval_lists
        GROUP BY query_id, slot, item_id
    )
)
WHERE rank <= $k
ORDER BY query_id, slot, rank
