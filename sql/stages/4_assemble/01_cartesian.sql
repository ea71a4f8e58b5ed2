-- 01_cartesian: the factors of each ready query's Cartesian product: its accepted items per slot.
-- Reads: subqueries, candidates, verdicts, combinations. Creates: TEMP TABLE assembled_products
-- (query_id, slot, item_id, rank = the item's retrieval rank for the slot's sub-query, is_reference =
-- the slot's reference). Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]).
-- The product itself is never built: toolex.pipeline.kbest enumerates it best first by RRF and
-- the assembly stores only what the audit budget takes (a 2 KB row per combination made the
-- whole product cost gigabytes). 04, 05 and 07 read the query ids from here.
-- A query is ready when every sub-query has candidates, every candidate a verdict, and it has no
-- combinations yet (assembling twice never duplicates); it has a product when every slot has
-- an accepted item.
-- One tool in two slots is kept: the paper assembles the full product of the verified sets, and
-- a tool verified for two steps that serves both is a legitimate plan (a search API that also
-- returns the details the second step asks for). Whether it really covers both steps is the
-- audit's question, not the product's; the metrics count such a tool once per combination.
CREATE OR REPLACE TEMP TABLE assembled_products AS
WITH slots AS (
    SELECT query_id, count(*) AS k FROM subqueries
    WHERE benchmark = $benchmark AND expansion = $expansion AND list_contains($query_ids, query_id)
    GROUP BY query_id
),
ready AS (
    SELECT sl.query_id, sl.k FROM slots sl
    WHERE NOT EXISTS (SELECT 1 FROM combinations c WHERE c.benchmark = $benchmark
                      AND c.expansion = $expansion AND c.query_id = sl.query_id)
      AND sl.k = (SELECT count(DISTINCT slot) FROM candidates c WHERE c.benchmark = $benchmark
                  AND c.expansion = $expansion AND c.query_id = sl.query_id)
      AND NOT EXISTS (SELECT 1 FROM candidates c WHERE c.benchmark = $benchmark
                      AND c.expansion = $expansion AND c.query_id = sl.query_id
                      AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.benchmark = c.benchmark
                                      AND v.expansion = c.expansion AND v.query_id = c.query_id
                                      AND v.slot = c.slot AND v.item_id = c.item_id))
),
accepted AS (
    SELECT c.query_id, c.slot, c.item_id, c.rank, c.item_id = s.reference AS is_reference, r.k
    FROM candidates c
    JOIN ready r ON r.query_id = c.query_id
    JOIN verdicts v ON v.benchmark = c.benchmark AND v.expansion = c.expansion
         AND v.query_id = c.query_id AND v.slot = c.slot AND v.item_id = c.item_id
    JOIN subqueries s ON s.benchmark = c.benchmark AND s.expansion = c.expansion
         AND s.query_id = c.query_id AND s.slot = c.slot
    WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND v.accepted
)
SELECT query_id, slot, item_id, rank, is_reference
FROM accepted a
WHERE a.k = (SELECT count(DISTINCT b.slot) FROM accepted b WHERE b.query_id = a.query_id);
