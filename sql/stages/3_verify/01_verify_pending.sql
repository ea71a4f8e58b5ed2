-- 01_verify_pending: candidates without a verdict, with the texts the judge reads beside the docs.
-- Reads: candidates, subqueries, queries, items, verdicts, stage_failures. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]), $retry_failed (BOOLEAN).
-- The reference itself is included (is_reference): the stage passes it without a call. The docs
-- of the candidate and the reference come once per item from 02, not on every task row.
SELECT c.query_id, c.slot, c.item_id, c.item_id = s.reference AS is_reference, s.text AS subquery,
       s.reference, q.text AS request
FROM candidates c
JOIN subqueries s ON s.benchmark = c.benchmark AND s.expansion = c.expansion
     AND s.query_id = c.query_id AND s.slot = c.slot
JOIN queries q ON q.benchmark = c.benchmark AND q.query_id = c.query_id
JOIN items ci ON ci.benchmark = c.benchmark AND ci.item_id = c.item_id  -- both documented
JOIN items ri ON ri.benchmark = s.benchmark AND ri.item_id = s.reference
WHERE c.benchmark = $benchmark AND c.expansion = $expansion
  AND list_contains($query_ids, c.query_id)
  AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.benchmark = c.benchmark
                  AND v.expansion = c.expansion AND v.query_id = c.query_id
                  AND v.slot = c.slot AND v.item_id = c.item_id)
  AND ($retry_failed OR NOT EXISTS (
        SELECT 1 FROM stage_failures f WHERE f.benchmark = c.benchmark
        AND f.expansion = c.expansion AND f.stage = 'verify'
        AND f.task_key = c.query_id || '/' || c.slot || '/' || c.item_id))
ORDER BY c.query_id, c.slot, c.rank, c.item_id;
