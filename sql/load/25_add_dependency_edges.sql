-- 25_add_dependency_edges: explicit producer->consumer edges added to a loaded benchmark's
-- queries after its load (an imported combinations file carries them; toolex.loaders.edges), as
-- facts about the benchmark's plan that every expansion's assembly reads.
-- Reads: new_edges (registered: query_id, producer_slot, consumer_slot, value, source, origin).
-- Creates: dependency_edges rows; an edge already stored (loaded, or imported before) is kept.
-- Parameters: $benchmark.
INSERT INTO dependency_edges (benchmark, query_id, producer_slot, consumer_slot, value, source,
                              origin)
SELECT $benchmark, query_id, producer_slot, consumer_slot, value, source, origin
FROM new_edges
ON CONFLICT DO NOTHING;
