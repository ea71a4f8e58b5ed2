-- 13_audit_cap: the audit budget: in the batch just judged, drop every combination ranked past
-- its query's budget-th pending one (the best `budget` by RRF go to the audit).
-- Reads: assembly_round (08: the batch, judged by 11 and 12), assembled_combinations (08: the
-- group's earlier batches). Deletes: assembly_round rows (14 then drops their members).
-- Parameters: $budget (INTEGER >= 0).
-- toolex.pipeline.assemble enumerates in rounds, each sized from the rule's rejections so far,
-- so a round can pass the budget; what it passed, pending or rejected, is counted in
-- combination_products (064, 066) as unstored, like the rest of the product. Cutting each
-- batch before 15 keeps it means a query never holds more than its budget's pending ones and
-- counts as rejected only those ranked within its budget. The enumeration goes in rank order,
-- so the earlier batches rank below anything passed: only this batch can hold it. The
-- original (combo 0) always stays.
DELETE FROM assembly_round r
USING (
    SELECT query_id, rrf_rank AS last_rank
    FROM (
        SELECT query_id, rrf_rank,
               row_number() OVER (PARTITION BY query_id ORDER BY rrf_rank) AS pos
        FROM (
            SELECT query_id, rrf_rank FROM assembly_round WHERE status = 'pending'
            UNION ALL
            SELECT query_id, rrf_rank FROM assembled_combinations
            WHERE status = 'pending' AND query_id IN (SELECT query_id FROM assembly_round)
        )
    )
    WHERE pos = $budget
) b
WHERE r.query_id = b.query_id AND NOT r.is_original AND r.rrf_rank > b.last_rank;
