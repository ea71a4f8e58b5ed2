-- 66_plain_benchmarks: the one benchmark a qrels file scored in place stands for (toolex.runs.
-- plain), as toolex.runs.direct.qrels_benchmark makes it, without a revision (nothing compares
-- it: the store lives as long as the scoring).
-- Reads: nothing. Creates: TEMP TABLE benchmarks, a connection-local stand-in (one row).
-- Parameters: $benchmark, $format, $source.
CREATE TEMP TABLE benchmarks AS
SELECT CAST($benchmark AS VARCHAR) AS benchmark, CAST($format AS VARCHAR) AS format,
       CAST($source AS VARCHAR) AS source, CAST(NULL AS VARCHAR) AS revision,
       CAST(current_timestamp AS TIMESTAMP) AS loaded_at;
