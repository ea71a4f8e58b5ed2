-- 11_expansions: the expansions of one benchmark (expanded, or with imported combinations or
-- sub-queries), for existence checks.
-- Reads: expansions, combinations, subqueries. Creates: nothing. Parameters: $benchmark.
SELECT expansion FROM expansions WHERE benchmark = $benchmark
UNION
SELECT DISTINCT expansion FROM combinations WHERE benchmark = $benchmark
UNION
SELECT DISTINCT expansion FROM subqueries WHERE benchmark = $benchmark
ORDER BY 1
