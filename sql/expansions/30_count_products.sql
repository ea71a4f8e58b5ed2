-- 30_count_products: record each assembled query's product size, what was stored, what the
-- dependency rule rejected, and the rest (toolex.expansions.count_products).
-- Reads: stage_rows (a registered batch of ProductCount from toolex.pipeline.assemble: query_id,
-- product (VARCHAR digits, or NULL past HUGEINT), budget, judge), assembled_combinations
-- (stages/4_assemble/08: the group's rows as 31 stores them; stages/4_assemble/01 only
-- assembles queries with none stored yet), assembled_rejected (stages/4_assemble/08: the rule's
-- rejections per query and batch, counted by stages/4_assemble/15), assembled_repeated (the
-- repeats of a kept tool set per query and batch, counted by stages/4_assemble/22).
-- Creates: combination_products rows (064, 066, 071). Parameters: $benchmark, $expansion.
-- stored counts the query's rows once the assembly is done, rejected_platform its rejections
-- within the budget and repeated its repeats within it (neither stored); unstored = product -
-- stored - rejected_platform - repeated, the cut.
INSERT OR REPLACE INTO combination_products (benchmark, expansion, query_id, product, stored,
                                              rejected_platform, repeated, unstored, budget,
                                              judge)
SELECT $benchmark, $expansion, r.query_id, CAST(r.product AS HUGEINT), s.stored,
       coalesce(x.rejected, 0), coalesce(d.repeated, 0),
       CAST(r.product AS HUGEINT) - s.stored - coalesce(x.rejected, 0) - coalesce(d.repeated, 0),
       r.budget, r.judge
FROM stage_rows r
JOIN (SELECT query_id, count(*) AS stored FROM assembled_combinations
      WHERE query_id IN (SELECT query_id FROM stage_rows)
      GROUP BY query_id) s ON s.query_id = r.query_id
LEFT JOIN (SELECT query_id, sum(n) AS rejected FROM assembled_rejected
           GROUP BY query_id) x ON x.query_id = r.query_id
LEFT JOIN (SELECT query_id, sum(n) AS repeated FROM assembled_repeated
           GROUP BY query_id) d ON d.query_id = r.query_id;
