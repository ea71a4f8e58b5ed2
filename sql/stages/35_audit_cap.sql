-- 35_audit_cap: the audit budget: keep the combinations ranked up to each query's budget-th
-- pending one (the best `budget` by RRF go to the audit), drop what the enumeration overshot.
-- Reads: stage_rows (a registered batch: query_id, last_rank = the rrf_rank of the query's
-- budget-th pending combination), assembled_combinations (71). Deletes: assembled_combinations
-- rows (68 then drops their members). Parameters: none.
-- toolex.pipeline.assemble enumerates in rounds, each sized from the rule's rejections so far,
-- so a round can pass the budget; what it passed is counted in combination_products (064) as
-- unstored, like the rest of the product. The original (combo 0) always stays.
DELETE FROM assembled_combinations c
WHERE NOT c.is_original
  AND c.rrf_rank > (SELECT b.last_rank FROM stage_rows b WHERE b.query_id = c.query_id);
