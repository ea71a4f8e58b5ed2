-- 03_pending_work: work that later stages will create (for the dry run's upper bounds), and what
-- the assembled queries sent to the audit (for its expected number of calls).
-- Reads: qrels, subqueries, candidates, combinations. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]).
-- assembled_queries / audit_tasks: the chosen queries the pipeline assembled and the
-- combinations of theirs that reach the audit (every alternative not rejected by the rule nor
-- cut: pending or audited; imported ones excluded), the rate an unassembled query is expected
-- to send.
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
        AS unassembled_queries,
    (SELECT count(DISTINCT c.query_id) FROM combinations c
       WHERE c.benchmark = $benchmark AND c.expansion = $expansion
         AND list_contains($query_ids, c.query_id) AND c.is_original
         AND c.judge IS DISTINCT FROM 'import') AS assembled_queries,
    (SELECT count(*) FROM combinations c
       WHERE c.benchmark = $benchmark AND c.expansion = $expansion
         AND list_contains($query_ids, c.query_id) AND NOT c.is_original AND c.combo_id <> 0
         AND c.status IN ('pending', 'valid', 'rejected_audit')
         AND c.judge IS DISTINCT FROM 'import') AS audit_tasks;
