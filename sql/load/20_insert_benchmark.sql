-- Reads: nothing. Creates: one benchmarks row.
-- Parameters: $benchmark, $format (loader name), $source (path or hub id), $revision (content hash).
INSERT INTO benchmarks (benchmark, format, source, revision)
VALUES ($benchmark, $format, $source, $revision);
