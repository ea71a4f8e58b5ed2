-- 11_expansions: the expansions of one benchmark, or of every benchmark when $benchmark is NULL
-- (expanded, or with imported combinations or sub-queries), for existence checks.
-- Reads: expansions, combinations, subqueries. Creates: nothing.
-- Parameters: $benchmark (NULL for every benchmark).
SELECT expansion FROM expansions WHERE $benchmark IS NULL OR benchmark = $benchmark
UNION
SELECT DISTINCT expansion FROM combinations WHERE $benchmark IS NULL OR benchmark = $benchmark
UNION
SELECT DISTINCT expansion FROM subqueries WHERE $benchmark IS NULL OR benchmark = $benchmark
ORDER BY 1
