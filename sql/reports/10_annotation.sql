-- 10_annotation: the annotation table of an expansion, per benchmark and category plus 'all'.
-- Reads: queries, subqueries, verdicts, combinations, combination_products. Creates: nothing
-- (one row per group).
-- Parameters: $benchmarks VARCHAR[] (the benchmarks reported), $expansion VARCHAR.
-- Counts exclude the reference verdicts (the ground-truth tool always passes) and the original
-- combination (combo_id 0), so "accepted" and "alternatives" count only what the expansion added
-- (an alternative: a valid combination other than the original; "valid" alone, in `expand`,
-- `stats` and `info`, includes the original).
-- Every alternative's fate is shown, so a capped run never passes for an uncapped one:
-- assembled = alternatives + rejected_audit + rejected_platform + repeated + cut + pending;
-- audited = the alternatives an audit judged (not imported ones); cut = beyond the audit cap or
-- the per-query safety limit, never audited (the assembly counts them, never stores them:
-- combination_products.unstored, schema 064); so it does the dependency rule's rejections
-- (combination_products.rejected_platform, schema 066), added to the rows an older toolex stored,
-- and the repeats of a kept tool set (combination_products.repeated, schema 071: alternatives are
-- distinct tool sets).
WITH q AS (
    SELECT benchmark, query_id, coalesce(category, '(none)') AS category
    FROM queries
    WHERE list_contains($benchmarks::VARCHAR[], benchmark)
),
per_query AS (
    SELECT
        q.benchmark,
        q.query_id,
        q.category,
        (SELECT count(*) FROM subqueries s
          WHERE s.benchmark = q.benchmark AND s.expansion = $expansion
            AND s.query_id = q.query_id) AS n_subqueries,
        (SELECT count(*) FROM verdicts v
          WHERE v.benchmark = q.benchmark AND v.expansion = $expansion
            AND v.query_id = q.query_id AND v.judge <> 'reference') AS n_judged,
        (SELECT count(*) FROM verdicts v
          WHERE v.benchmark = q.benchmark AND v.expansion = $expansion
            AND v.query_id = q.query_id AND v.judge <> 'reference' AND v.accepted) AS n_accepted,
        (SELECT count(*) FILTER (WHERE c.status = 'valid') FROM combinations c
          WHERE c.benchmark = q.benchmark AND c.expansion = $expansion
            AND c.query_id = q.query_id AND c.combo_id <> 0) AS n_valid,
        (SELECT count(*) FILTER (WHERE c.status = 'rejected_audit') FROM combinations c
          WHERE c.benchmark = q.benchmark AND c.expansion = $expansion
            AND c.query_id = q.query_id AND c.combo_id <> 0) AS n_rejected_audit,
        (SELECT count(*) FILTER (WHERE c.status = 'rejected_platform') FROM combinations c
          WHERE c.benchmark = q.benchmark AND c.expansion = $expansion
            AND c.query_id = q.query_id AND c.combo_id <> 0)
          + (SELECT coalesce(sum(u.rejected_platform), 0) FROM combination_products u
             WHERE u.benchmark = q.benchmark AND u.expansion = $expansion
               AND u.query_id = q.query_id) AS n_rejected_platform,
        (SELECT coalesce(sum(u.repeated), 0) FROM combination_products u
          WHERE u.benchmark = q.benchmark AND u.expansion = $expansion
            AND u.query_id = q.query_id) AS n_repeated,
        (SELECT count(*) FILTER (WHERE c.status = 'cut') FROM combinations c
          WHERE c.benchmark = q.benchmark AND c.expansion = $expansion
            AND c.query_id = q.query_id AND c.combo_id <> 0)
          + (SELECT coalesce(sum(u.unstored), 0) FROM combination_products u
             WHERE u.benchmark = q.benchmark AND u.expansion = $expansion
               AND u.query_id = q.query_id) AS n_cut,
        (SELECT count(*) FILTER (WHERE c.status = 'pending') FROM combinations c
          WHERE c.benchmark = q.benchmark AND c.expansion = $expansion
            AND c.query_id = q.query_id AND c.combo_id <> 0) AS n_pending,
        (SELECT count(*) FROM combinations c
          WHERE c.benchmark = q.benchmark AND c.expansion = $expansion
            AND c.query_id = q.query_id AND c.combo_id <> 0)
          + (SELECT coalesce(sum(u.unstored + u.rejected_platform + u.repeated), 0)
             FROM combination_products u
             WHERE u.benchmark = q.benchmark AND u.expansion = $expansion
               AND u.query_id = q.query_id) AS n_assembled,
        (SELECT count(*) FILTER (WHERE c.status IN ('valid', 'rejected_audit')
                                 AND c.judge IS DISTINCT FROM 'import') FROM combinations c
          WHERE c.benchmark = q.benchmark AND c.expansion = $expansion
            AND c.query_id = q.query_id AND c.combo_id <> 0) AS n_audited
    FROM q
)
SELECT
    benchmark,
    coalesce(category, 'all') AS category,
    count(*) AS queries,
    count(*) FILTER (WHERE n_subqueries > 0) AS queries_expanded,
    sum(n_subqueries)::BIGINT AS subqueries,
    sum(n_judged)::BIGINT AS candidates_judged,
    sum(n_accepted)::BIGINT AS equivalents_accepted,
    sum(n_accepted) / nullif(sum(n_judged), 0) AS acceptance_rate,
    count(*) FILTER (WHERE n_accepted > 0) AS queries_with_equivalent,
    sum(n_assembled)::HUGEINT AS assembled,
    sum(n_audited)::BIGINT AS audited,
    sum(n_valid)::BIGINT AS alternatives,
    sum(n_rejected_audit)::BIGINT AS rejected_audit,
    sum(n_rejected_platform)::BIGINT AS rejected_platform,
    sum(n_repeated)::BIGINT AS repeated,
    sum(n_cut)::HUGEINT AS cut,
    sum(n_pending)::BIGINT AS pending,
    count(*) FILTER (WHERE n_valid > 0) AS queries_with_alternative,
    avg(1 + n_valid) AS mean_valid_per_query,
    max(1 + n_valid) AS max_valid_per_query
FROM per_query
GROUP BY GROUPING SETS ((benchmark, category), (benchmark))
ORDER BY benchmark, category IS NULL, category;
