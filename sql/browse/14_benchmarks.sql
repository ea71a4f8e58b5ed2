-- 14_benchmarks: the benchmarks and expansions held by the store, to pick what the TUI shows.
-- Reads: benchmarks, expansions, queries. Creates: nothing. Parameters: none.
SELECT b.benchmark, coalesce(e.expansion, 'default') AS expansion,
       (SELECT count(*) FROM queries q WHERE q.benchmark = b.benchmark) AS n_queries
FROM benchmarks b
LEFT JOIN expansions e USING (benchmark)
ORDER BY n_queries DESC, b.benchmark, expansion
