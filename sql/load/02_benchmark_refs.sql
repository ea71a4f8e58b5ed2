-- Reads: runs, expansions. Creates: nothing (one row). Parameters: $benchmark.
-- Counts what would be left pointing at a benchmark that --replace swaps out.
SELECT
    (SELECT count(*) FROM runs WHERE benchmark = $benchmark) AS runs,
    (SELECT count(*) FROM expansions WHERE benchmark = $benchmark) AS expansions;
