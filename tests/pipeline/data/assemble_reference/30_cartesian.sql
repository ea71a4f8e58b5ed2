-- 30_cartesian: the Cartesian product of the accepted sets of each ready query, for any k.
-- Reads: subqueries, candidates, verdicts, combinations. Creates: TEMP TABLE assembled_products
-- (query_id, items VARCHAR[] in slot order, ranks INTEGER[] = per-sub-query retrieval ranks).
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]).
-- A query is ready when every sub-query has candidates, every candidate a verdict, and it has no
-- combinations yet (assembling twice never duplicates). The product is built by a recursive CTE
-- that appends slot s+1 to every partial combination of slots 0..s.
-- One tool in two slots is kept: the paper assembles the full product of the verified sets, and
-- a tool verified for two steps that serves both is a legitimate plan (a search API that also
-- returns the details the second step asks for). Whether it really covers both steps is the
-- audit's question, not the product's; the metrics count such a tool once per combination.
CREATE OR REPLACE TEMP TABLE assembled_products AS
WITH RECURSIVE
slots AS (
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
    SELECT c.query_id, c.slot, c.item_id, c.rank
    FROM candidates c
    JOIN ready r ON r.query_id = c.query_id
    JOIN verdicts v ON v.benchmark = c.benchmark AND v.expansion = c.expansion
         AND v.query_id = c.query_id AND v.slot = c.slot AND v.item_id = c.item_id
    WHERE c.benchmark = $benchmark AND c.expansion = $expansion AND v.accepted
),
product(query_id, next_slot, items, ranks) AS (
    SELECT query_id, 1, [item_id], [rank] FROM accepted WHERE slot = 0
    UNION ALL
    SELECT p.query_id, p.next_slot + 1, list_append(p.items, a.item_id), list_append(p.ranks, a.rank)
    FROM product p
    JOIN accepted a ON a.query_id = p.query_id AND a.slot = p.next_slot
)
SELECT p.query_id, p.items, p.ranks
FROM product p JOIN ready r ON r.query_id = p.query_id AND p.next_slot = r.k;
