-- 081_subquery_import_missing: imported sub-queries whose ground-truth tool cannot be known.
-- Reads: the registered Arrow table retrieval_import, qrels. Creates: nothing (violating rows).
-- Parameters: $benchmark. Must return zero rows before 080 runs.
SELECT CAST(i.query_id AS VARCHAR) AS query_id, CAST(i.slot AS INTEGER) AS slot
FROM retrieval_import AS i
LEFT JOIN qrels AS q
       ON q.benchmark = $benchmark AND q.query_id = CAST(i.query_id AS VARCHAR)
      AND q.slot = CAST(i.slot AS INTEGER)
WHERE i.ref_item_id IS NULL AND q.item_id IS NULL
ORDER BY 1, 2
