-- 10_check_labels: which imported labels name things the store does not hold.
-- Reads: new_labels (registered: line, benchmark, query_id, slot, reference, candidate), queries,
-- items, qrels. Creates: nothing (one row per label with a problem).
-- Parameters: none. A label is sound when its query is a query of its benchmark, reference and
-- candidate are items of it, the reference is a ground-truth item of the query, and a given slot
-- is the reference's slot; gt_items lists the query's ground truth for the message.
WITH checked AS (
    SELECT l.line, l.benchmark, l.query_id, l.slot, l.reference, l.candidate,
           q.query_id IS NOT NULL AS query_known,
           ri.item_id IS NOT NULL AS reference_known,
           ci.item_id IS NOT NULL AS candidate_known,
           g.slot AS gt_slot,
           (SELECT list(x.item_id ORDER BY x.slot) FROM qrels x
            WHERE x.benchmark = l.benchmark AND x.query_id = l.query_id) AS gt_items
    FROM new_labels AS l
    LEFT JOIN queries AS q ON q.benchmark = l.benchmark AND q.query_id = l.query_id
    LEFT JOIN items AS ri ON ri.benchmark = l.benchmark AND ri.item_id = l.reference
    LEFT JOIN items AS ci ON ci.benchmark = l.benchmark AND ci.item_id = l.candidate
    LEFT JOIN qrels AS g ON g.benchmark = l.benchmark AND g.query_id = l.query_id
         AND g.item_id = l.reference
)
SELECT *
FROM checked
WHERE NOT query_known OR NOT reference_known OR NOT candidate_known OR gt_slot IS NULL
   OR (slot IS NOT NULL AND slot <> gt_slot)
ORDER BY line;
