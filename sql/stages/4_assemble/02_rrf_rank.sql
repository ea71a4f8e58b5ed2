-- 02_rrf_rank: each factor's RRF term, for toolex.pipeline.kbest to rank the combinations.
-- Reads: assembled_products (01). Creates: nothing (query_id, slot, item_id, is_reference, term).
-- Parameters: $rrf_k (60).
-- RRF (Cormack et al., SIGIR 2009; ranx's definition): a combination's rrf = the sum over its
-- slots of term = 1/(rrf_k + rank), rank = the member's 1-based retrieval rank for its sub-query
-- (K+1 for an unretrieved reference). kbest adds the terms left to right in slot order, as
-- DuckDB's sum() over the ranks did when the product was built here, so the stored floats are
-- the same bits. Ties: rrf DESC, then the item list DESC (the trec_eval rule, applied to the
-- list), so the order is total and deterministic. combo_id 0 is the original (the slots'
-- references); the others are numbered 1.. in rank order. Rows come best term first per slot.
SELECT query_id, slot, item_id, is_reference, 1.0 / ($rrf_k + rank) AS term
FROM assembled_products
ORDER BY query_id, slot, rank, item_id;
