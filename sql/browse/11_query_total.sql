-- 11_query_total: how many queries the benchmark holds (the unfiltered count in the header).
-- Reads: queries. Creates: nothing. Parameters: $benchmark.
SELECT count(*) AS n FROM queries WHERE benchmark = $benchmark
