-- 05_assemble_edges: the explicit producer->consumer edges of the queries about to be assembled
-- (from 01), for the dependency rule. Reads: assembled_products, dependency_edges.
-- Creates: nothing. Parameters: $benchmark.
SELECT query_id, producer_slot, consumer_slot, value, source
FROM dependency_edges
WHERE benchmark = $benchmark
  AND query_id IN (SELECT DISTINCT query_id FROM assembled_products)
ORDER BY query_id, producer_slot, consumer_slot, value;
