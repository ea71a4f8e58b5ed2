-- 22_info_expansions: one row per expansion (run by `expand`, or imported) with what it holds.
-- Reads: expansions, subqueries, combinations, stage_failures. Creates: nothing.
-- Parameters: none.
-- subqueries: stored sub-queries; valid: every valid combination, the original included (as
-- `expand`'s outcome and `stats` count it); alternatives: the valid ones other than the
-- original; queries_with_alternative: queries with at least one; failed: pipeline tasks whose
-- answer failed.
WITH names AS (
    SELECT benchmark, expansion FROM expansions
    UNION SELECT DISTINCT benchmark, expansion FROM combinations
    UNION SELECT DISTINCT benchmark, expansion FROM subqueries
)
SELECT n.benchmark, n.expansion,
       (SELECT count(*) FROM subqueries AS s
        WHERE s.benchmark = n.benchmark AND s.expansion = n.expansion) AS subqueries,
       (SELECT count(*) FROM combinations AS c
        WHERE c.benchmark = n.benchmark AND c.expansion = n.expansion
          AND c.status = 'valid') AS valid,
       (SELECT count(*) FROM combinations AS c
        WHERE c.benchmark = n.benchmark AND c.expansion = n.expansion
          AND c.status = 'valid' AND c.combo_id <> 0 AND NOT c.is_original) AS alternatives,
       (SELECT count(DISTINCT c.query_id) FROM combinations AS c
        WHERE c.benchmark = n.benchmark AND c.expansion = n.expansion
          AND c.status = 'valid' AND c.combo_id <> 0 AND NOT c.is_original)
           AS queries_with_alternative,
       (SELECT count(*) FROM stage_failures AS f
        WHERE f.benchmark = n.benchmark AND f.expansion = n.expansion) AS failed
FROM names AS n
ORDER BY n.benchmark, n.expansion
