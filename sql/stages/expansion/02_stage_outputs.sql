-- 02_stage_outputs: how many rows each stage of an expansion has written (imports excluded), to
-- tell whether the settings recorded for a stage were used.
-- Reads: subqueries, candidates, verdicts, combinations. Creates: nothing (one row).
-- Parameters: $benchmark, $expansion.
-- A reference verdict, an imported row (sub-queries judged 'import', candidates retrieved by
-- 'import:<name>') and the rule's own rejections involve no judge or retriever, so they say
-- nothing about which settings a stage ran with; assembled combinations carry an RRF score,
-- imported ones do not.
SELECT
    (SELECT count(*) FROM subqueries WHERE benchmark = $benchmark AND expansion = $expansion
       AND judge IS DISTINCT FROM 'import') AS decompose,
    (SELECT count(*) FROM candidates WHERE benchmark = $benchmark AND expansion = $expansion
       AND retriever NOT LIKE 'import:%') AS candidates,
    (SELECT count(*) FROM verdicts WHERE benchmark = $benchmark AND expansion = $expansion
       AND judge <> 'reference') AS verify,
    (SELECT count(*) FROM combinations WHERE benchmark = $benchmark AND expansion = $expansion
       AND rrf IS NOT NULL) AS assemble,
    (SELECT count(*) FROM combinations WHERE benchmark = $benchmark AND expansion = $expansion
       AND NOT is_original AND status IN ('valid', 'rejected_audit')
       AND judge IS DISTINCT FROM 'import') AS audit;
