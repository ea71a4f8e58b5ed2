-- 24_insert_dependency_edges: the explicit producer->consumer edges a benchmark's format carries.
-- Reads: new_edges (registered Arrow table: query_id, producer_slot, consumer_slot, value,
-- source, origin). Creates: dependency_edges rows. Parameters: $benchmark.
INSERT INTO dependency_edges (benchmark, query_id, producer_slot, consumer_slot, value, source,
                              origin)
SELECT $benchmark, query_id, producer_slot, consumer_slot, value, source, origin
FROM new_edges;
