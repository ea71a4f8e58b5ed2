-- 19_safety_limit_hits: queries whose uncapped audit stopped at the per-query safety limit, and
-- how many of their combinations it cut (so a limited run never passes for a complete one).
-- Reads: combination_products, combinations. Creates: nothing (query_id, cut).
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[] or NULL = every query).
-- Cut = the product beyond the limit, counted by the assembly (064), plus any 'cut' rows an
-- older toolex stored.
SELECT query_id, sum(n) AS cut
FROM (
    SELECT query_id, unstored AS n
    FROM combination_products
    WHERE benchmark = $benchmark AND expansion = $expansion AND judge = 'safety_limit'
      AND unstored > 0 AND ($query_ids IS NULL OR list_contains($query_ids, query_id))
    UNION ALL
    SELECT query_id, count(*)
    FROM combinations
    WHERE benchmark = $benchmark AND expansion = $expansion AND status = 'cut'
      AND judge = 'safety_limit'
      AND ($query_ids IS NULL OR list_contains($query_ids, query_id))
    GROUP BY query_id
)
GROUP BY query_id
ORDER BY cut DESC, query_id;
