-- 43_count_products: record each assembled query's product size, what was stored, and the rest.
-- Reads: stage_rows (a registered batch from toolex.pipeline.assemble: query_id, product
-- (VARCHAR digits, or NULL past HUGEINT), budget, judge), assembled_combinations (71: the
-- group's rows as 73 stores them; 30 only assembles queries with none stored yet).
-- Creates: combination_products rows (064). Parameters: $benchmark, $expansion.
-- stored counts the query's rows once the assembly is done; unstored = product - stored.
INSERT OR REPLACE INTO combination_products (benchmark, expansion, query_id, product, stored,
                                              unstored, budget, judge)
SELECT $benchmark, $expansion, r.query_id, CAST(r.product AS HUGEINT), s.stored,
       CAST(r.product AS HUGEINT) - s.stored, r.budget, r.judge
FROM stage_rows r
JOIN (SELECT query_id, count(*) AS stored FROM assembled_combinations
      WHERE query_id IN (SELECT query_id FROM stage_rows)
      GROUP BY query_id) s ON s.query_id = r.query_id;
