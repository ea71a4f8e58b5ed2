-- 03_checklist_edges: the explicit producer->consumer edges (loaded or imported) of the queries
-- an audit runs on, so each consumer's checklist line says what it takes from which step.
-- Reads: dependency_edges. Creates: nothing. Parameters: $benchmark, $query_ids (VARCHAR[]).
SELECT query_id, producer_slot, consumer_slot, value, source
FROM dependency_edges
WHERE benchmark = $benchmark AND list_contains($query_ids, query_id)
ORDER BY query_id, consumer_slot, producer_slot, value;
