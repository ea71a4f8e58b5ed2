-- 080_import_subqueries: sub-queries written outside the pipeline, imported into an expansion.
-- Reads: the registered Arrow table retrieval_import(query_id, slot, text, ref_item_id,
-- operation, entity), qrels. Creates: rows in subqueries (replacing the same keys).
-- Parameters: $benchmark, $expansion. A missing ref_item_id is the qrels item of the same slot.
INSERT OR REPLACE INTO subqueries
    (benchmark, expansion, query_id, slot, text, operation, entity, ref_item_id, judge, call_id)
SELECT $benchmark, $expansion, CAST(i.query_id AS VARCHAR), CAST(i.slot AS INTEGER),
       CAST(i.text AS VARCHAR), i.operation, i.entity, COALESCE(i.ref_item_id, q.item_id),
       'import', NULL
FROM retrieval_import AS i
LEFT JOIN qrels AS q
       ON q.benchmark = $benchmark AND q.query_id = CAST(i.query_id AS VARCHAR)
      AND q.slot = CAST(i.slot AS INTEGER)
