-- 15_delete_dependency_edges: every explicit dependency edge of one benchmark, loaded or imported
-- (part of a --replace swap, run inside the same transaction as the inserts: the edges name slots
-- of labels that may no longer exist). Reads: nothing. Deletes: dependency_edges rows.
-- Parameters: $benchmark.
DELETE FROM dependency_edges WHERE benchmark = $benchmark;
