-- 09_stage_inputs: how many of the chosen queries hold each stage's output, so that a run of
-- one stage over an expansion that lacks the stage before it says which to run first
-- (toolex.pipeline.outcome.missing_stage) instead of doing nothing.
-- Reads: subqueries, candidates, verdicts, combinations. Creates: nothing (one row).
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]).
SELECT
    (SELECT count(DISTINCT query_id) FROM subqueries
     WHERE benchmark = $benchmark AND expansion = $expansion
       AND list_contains($query_ids, query_id)) AS decompose,
    (SELECT count(DISTINCT query_id) FROM candidates
     WHERE benchmark = $benchmark AND expansion = $expansion
       AND list_contains($query_ids, query_id)) AS candidates,
    (SELECT count(DISTINCT query_id) FROM verdicts
     WHERE benchmark = $benchmark AND expansion = $expansion
       AND list_contains($query_ids, query_id)) AS verify,
    (SELECT count(DISTINCT query_id) FROM combinations
     WHERE benchmark = $benchmark AND expansion = $expansion
       AND list_contains($query_ids, query_id)) AS assemble
