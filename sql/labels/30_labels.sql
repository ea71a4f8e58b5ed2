-- 30_labels: the stored labels, optionally of one source and one benchmark.
-- Reads: labels. Creates: nothing. Parameters: $source, $benchmark (NULL = any).
SELECT benchmark, query_id, slot, subquery, reference, candidate, label, labeller, note, source,
       CAST(stratum AS VARCHAR) AS stratum, labelled_at
FROM labels
WHERE ($source IS NULL OR source = $source)
  AND ($benchmark IS NULL OR benchmark = $benchmark)
ORDER BY source, benchmark, query_id, reference, candidate;
