-- 03_pending_work: work that later stages will create (for the dry-run upper bounds).
-- Reads: qrels, subqueries, candidates, combinations. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]).
SELECT
    (SELECT count(*) FROM qrels r WHERE r.benchmark = $benchmark
       AND list_contains($query_ids, r.query_id)
       AND NOT EXISTS (SELECT 1 FROM subqueries s WHERE s.benchmark = r.benchmark
                       AND s.expansion = $expansion AND s.query_id = r.query_id))
        AS undecomposed_slots,
    (SELECT count(*) FROM subqueries s WHERE s.benchmark = $benchmark
       AND s.expansion = $expansion AND list_contains($query_ids, s.query_id)
       AND NOT EXISTS (SELECT 1 FROM candidates c WHERE c.benchmark = s.benchmark
                       AND c.expansion = s.expansion AND c.query_id = s.query_id
                       AND c.slot = s.slot)) AS subqueries_without_candidates,
    (SELECT count(*) FROM unnest($query_ids) AS u(query_id)
       WHERE NOT EXISTS (SELECT 1 FROM combinations c WHERE c.benchmark = $benchmark
                         AND c.expansion = $expansion AND c.query_id = u.query_id))
        AS unassembled_queries;
