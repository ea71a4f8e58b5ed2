-- 17_insert_dependency_edges: the explicit producer->consumer edges an imported combinations file
-- carries, as facts about the benchmark's queries (every expansion's assembly reads them).
-- Reads: new_edges (registered: query_id, producer_slot, consumer_slot, value, source, origin).
-- Creates: dependency_edges rows; an edge already stored (loaded, or imported before) is kept.
-- Parameters: $benchmark.
INSERT INTO dependency_edges (benchmark, query_id, producer_slot, consumer_slot, value, source,
                              origin)
SELECT $benchmark, query_id, producer_slot, consumer_slot, value, source, origin
FROM new_edges
ON CONFLICT DO NOTHING;
