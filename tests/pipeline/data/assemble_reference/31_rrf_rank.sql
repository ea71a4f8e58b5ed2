-- 31_rrf_rank: score and number the assembled combinations.
-- Reads: assembled_products (30), subqueries. Creates: TEMP TABLE ranked_products
-- (query_id, combo_id, items, rrf, rrf_rank, is_original). Parameters: $benchmark, $expansion,
-- $rrf_k (60).
-- RRF (Cormack et al., SIGIR 2009; ranx's definition): rrf = sum over slots of 1/(rrf_k + rank),
-- rank = the member's 1-based retrieval rank for its sub-query (K+1 for an unretrieved reference).
-- Ties: rrf DESC, then the item list DESC (the trec_eval rule, applied to the list), so the order
-- is total and deterministic. combo_id 0 is the original (the slots' references); the others are
-- numbered 1.. in rank order.
CREATE OR REPLACE TEMP TABLE ranked_products AS
WITH originals AS (
    SELECT query_id, list(reference ORDER BY slot) AS items
    FROM subqueries WHERE benchmark = $benchmark AND expansion = $expansion
    GROUP BY query_id
),
scored AS (
    SELECT p.query_id, p.items,
           (SELECT sum(1.0 / ($rrf_k + u.r)) FROM unnest(p.ranks) AS u(r)) AS rrf,
           p.items = o.items AS is_original
    FROM assembled_products p JOIN originals o ON o.query_id = p.query_id
),
ranked AS (
    SELECT *, row_number() OVER (PARTITION BY query_id ORDER BY rrf DESC, items DESC) AS rrf_rank
    FROM scored
)
SELECT query_id, items, rrf, rrf_rank, is_original,
       CASE WHEN is_original THEN 0
            ELSE row_number() OVER (PARTITION BY query_id, is_original ORDER BY rrf_rank) END
           AS combo_id
FROM ranked;
