-- 06_stats: the annotation table (one row for all queries, plus one per category or task).
-- Reads: queries, subqueries, verdicts, combinations, combination_products. Creates: nothing.
-- Parameters: $benchmark, $expansion, $by ('all' | 'category' | 'task').
-- Columns: verified = accepted items incl. references; subs_with_equiv = share of sub-queries
-- with >= 1 equivalent beyond the GT; queries_with_alt = share of queries with >= 1 valid
-- alternative combination.
-- The fate of every combination, original and imported ones included, so a capped run never
-- passes for an uncapped one: assembled = valid_combos + rejected_platform + repeated +
-- rejected_audit + cut + pending; valid_combos counts every valid combination, the original included, and
-- alternatives the valid ones other than the original (the words of `expand`'s outcome too);
-- audited = the combinations an audit judged (valid or rejected_audit, neither
-- the original nor imported); rejected_platform = what the dependency rule rejected (the
-- assembly counts them, combination_products.rejected_platform, schema 066, beside the rows an
-- older toolex stored); repeated = what repeated the tool set of a combination kept (the
-- original's or a better-ranked one's: counted, never stored, combination_products.repeated,
-- schema 071), so valid_combos and alternatives count distinct tool sets; cut = beyond the audit
-- cap or the per-query safety limit (counted, never stored: combination_products.unstored,
-- schema 064);
-- dependency_unchecked = combinations not rejected whose dependency check could not run (a replaced
-- member's platform, or what it hands over, unknown: stages/4_assemble/17_dependency_check).
-- A query counts as annotated once it has combinations (stage 3 ran for it). Verified items
-- include each slot's reference; "equivalent beyond the GT" = an accepted non-reference item.
WITH annotated AS (
    SELECT q.query_id, CASE $by WHEN 'category' THEN q.category WHEN 'task' THEN q.task END
           AS category
    FROM queries q
    WHERE q.benchmark = $benchmark AND EXISTS (
        SELECT 1 FROM combinations c WHERE c.benchmark = q.benchmark
        AND c.expansion = $expansion AND c.query_id = q.query_id)
),
per_sub AS (
    SELECT s.query_id, s.slot,
           count(v.item_id) FILTER (WHERE v.accepted) AS verified,
           count(v.item_id) FILTER (WHERE v.accepted AND v.item_id <> s.reference) AS beyond
    FROM subqueries s JOIN annotated a ON a.query_id = s.query_id
    LEFT JOIN verdicts v ON v.benchmark = s.benchmark AND v.expansion = s.expansion
         AND v.query_id = s.query_id AND v.slot = s.slot
    WHERE s.benchmark = $benchmark AND s.expansion = $expansion
    GROUP BY s.query_id, s.slot
),
per_query AS (
    SELECT a.query_id, a.category,
           (SELECT count(*) FROM per_sub p WHERE p.query_id = a.query_id) AS subqueries,
           (SELECT coalesce(sum(verified), 0) FROM per_sub p WHERE p.query_id = a.query_id) AS verified,
           (SELECT count(*) FROM per_sub p WHERE p.query_id = a.query_id AND p.beyond > 0) AS subs_beyond,
           f.assembled + coalesce(u.unstored, 0) + coalesce(u.rejected_platform, 0)
               + coalesce(u.repeated, 0) AS assembled,
           f.valid, f.alternatives, f.rejected_platform + coalesce(u.rejected_platform, 0) AS rejected_platform,
           coalesce(u.repeated, 0) AS repeated,
           f.rejected_audit, f.cut + coalesce(u.unstored, 0) AS cut, f.pending,
           f.audited, f.dependency_unchecked
    FROM annotated a
    JOIN (SELECT query_id, count(*) AS assembled,
                 count(*) FILTER (WHERE status = 'valid') AS valid,
                 count(*) FILTER (WHERE status = 'valid' AND NOT is_original AND combo_id <> 0)
                     AS alternatives,
                 count(*) FILTER (WHERE status = 'rejected_platform') AS rejected_platform,
                 count(*) FILTER (WHERE status = 'rejected_audit') AS rejected_audit,
                 count(*) FILTER (WHERE status = 'cut') AS cut,
                 count(*) FILTER (WHERE status = 'pending') AS pending,
                 count(*) FILTER (WHERE status IN ('valid', 'rejected_audit') AND NOT is_original
                                  AND judge IS DISTINCT FROM 'import') AS audited,
                 count(*) FILTER (WHERE dependency_check = 'unknown'
                                  AND status <> 'rejected_platform') AS dependency_unchecked
          FROM combinations WHERE benchmark = $benchmark AND expansion = $expansion
          GROUP BY query_id) f ON f.query_id = a.query_id
    LEFT JOIN combination_products u ON u.benchmark = $benchmark AND u.expansion = $expansion
         AND u.query_id = a.query_id
),
grouped AS (
    SELECT 'all' AS category, * EXCLUDE (category) FROM per_query
    UNION ALL
    SELECT coalesce(category, '(none)'), * EXCLUDE (category) FROM per_query WHERE $by <> 'all'
)
SELECT category,
       count(*) AS queries,
       sum(subqueries)::BIGINT AS subqueries,
       sum(verified)::BIGINT AS verified,
       round(sum(verified) / nullif(sum(subqueries), 0), 2) AS items_per_sub,
       sum(assembled)::HUGEINT AS assembled,
       sum(rejected_platform)::BIGINT AS rejected_platform,
       sum(repeated)::BIGINT AS repeated,
       sum(audited)::BIGINT AS audited,
       sum(rejected_audit)::BIGINT AS rejected_audit,
       sum(cut)::HUGEINT AS cut,
       sum(pending)::BIGINT AS pending,
       sum(valid)::BIGINT AS valid_combos,
       sum(alternatives)::BIGINT AS alternatives,
       round(sum(valid) / count(*), 2) AS combos_per_query,
       round(sum(subs_beyond) / nullif(sum(subqueries), 0), 4) AS subs_with_equiv,
       round(count(*) FILTER (WHERE valid > 1) / count(*), 4) AS queries_with_alt,
       sum(dependency_unchecked)::BIGINT AS dependency_unchecked
FROM grouped
GROUP BY category
ORDER BY category = 'all' DESC, category;
