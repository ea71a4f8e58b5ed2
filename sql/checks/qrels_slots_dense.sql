-- qrels_slots_dense: a query's k labels fill slots 0..k-1, each once. Decomposition writes
-- sub-queries 0..k-1, assembly fills slots 0..k-1 and an expanded tool inherits the grade of the
-- label in its slot (sql/metrics/020), so a gap (0, 2) gives a replacement the grade of no label
-- and a wrong new score. Stores loaded before the loaders renumbered merged repeats may hold such
-- gaps: load the benchmark again with --replace.
-- Reads: qrels. Returns the queries whose slots are not 0..k-1, with the slots they hold.
SELECT benchmark, query_id, count(*) AS k, list(slot ORDER BY slot) AS slots
FROM qrels
GROUP BY benchmark, query_id
HAVING min(slot) <> 0 OR max(slot) <> count(*) - 1 OR count(DISTINCT slot) <> count(*)
ORDER BY benchmark, query_id;
