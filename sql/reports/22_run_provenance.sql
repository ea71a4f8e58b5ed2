-- 22_run_provenance: what each scored run is, for the marks and warnings of the score tables.
-- Reads: runs, expansions. Creates: nothing.
-- Parameters: $run_ids (VARCHAR[]), $expansion (the expansion the new scores come from).
-- oracle: a sub-query-level run, whose sub-queries were made with the ground-truth tool count
-- and documentation (oracle-assisted, the paper's † rows). candidate_retriever: the retriever that
-- drew the expansion's candidates on the run's benchmark (expansions.config). pool_bias: 'same'
-- when the run's retriever (runs.retriever, else runs.params) is that retriever, 'shared' when a
-- hybrid on either side has it as a component (hybrid:<a>+<b>), else NULL: the expanded labels
-- hold only tools the candidate retriever found, which favours a run that ranks like it.
WITH r AS (
    SELECT
        run_id,
        benchmark,
        level,
        coalesce(retriever, params ->> 'retriever') AS retriever,
        string_split(regexp_replace(lower(trim(coalesce(retriever, params ->> 'retriever'))),
                                    '^hybrid:', ''), '+') AS parts
    FROM runs
    WHERE list_contains($run_ids, run_id)
),
e AS (
    SELECT
        benchmark,
        config ->> 'retriever' AS candidate_retriever,
        string_split(regexp_replace(lower(trim(config ->> 'retriever')), '^hybrid:', ''), '+')
            AS parts
    FROM expansions
    WHERE expansion = $expansion
)
SELECT
    r.run_id,
    r.benchmark,
    r.level,
    r.level = 'subquery' AS oracle,
    r.retriever,
    e.candidate_retriever,
    CASE
        WHEN r.retriever IS NULL OR e.candidate_retriever IS NULL THEN NULL
        WHEN lower(trim(r.retriever)) = lower(trim(e.candidate_retriever)) THEN 'same'
        WHEN len(list_intersect(r.parts, e.parts)) > 0 THEN 'shared'
    END AS pool_bias
FROM r
LEFT JOIN e USING (benchmark)
ORDER BY r.run_id;
