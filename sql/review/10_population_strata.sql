-- 10_population_strata: the audit population (combinations the expansion accepted, i.e. status
-- 'valid' and not the original) counted per stratum = query category x number of tools.
-- Reads: combinations, combination_items, queries. Creates: nothing.
-- Parameters: $benchmark, $expansion.
WITH pop AS (
    SELECT c.query_id, c.combo_id, coalesce(q.category, '?') AS category,
           (SELECT count(*) FROM combination_items ci
            WHERE ci.benchmark = c.benchmark AND ci.expansion = c.expansion
              AND ci.query_id = c.query_id AND ci.combo_id = c.combo_id) AS n_tools
    FROM combinations c
    JOIN queries q ON q.benchmark = c.benchmark AND q.query_id = c.query_id
    WHERE c.benchmark = $benchmark AND c.expansion = $expansion
      AND c.status = 'valid' AND NOT c.is_original
)
SELECT category || ' x ' || CAST(n_tools AS VARCHAR) AS stratum, count(*) AS n
FROM pop
GROUP BY ALL
ORDER BY stratum
