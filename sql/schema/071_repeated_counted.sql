-- 071_repeated_counted: combination_products.repeated, the combinations the assembly did not
-- store because they repeat the tool set of one it kept (the original's, or a better-ranked
-- one's): an alternative is a distinct tool set.
-- Reads: combination_products. Creates: its column repeated (0 on the rows of queries assembled
-- before, which may store such repeats: `toolex check` names them, pipeline_combinations_distinct).
-- Parameters: none.
-- Why: one query's verified sets can hold each other's tools ((A, B) and (B, A) are two
-- combinations of one tool set), and the product counts each arrangement. On StableToolBench 23
-- of 287 alternatives repeated another's tool set or the original's: counted as alternatives
-- they inflated every count of them, and audited they cost an audit call each, for a score that
-- cannot differ ("new" is the best over the valid combinations, and scoring reads a
-- combination as the set of its tools, each at the grade of its slot).
-- The product of an assembled query now splits as product = stored + rejected_platform +
-- repeated + unstored: repeated = combinations ranked up to the query's budget-th pending one that
-- the rule let through but that repeat a kept tool set (sql/stages/4_assemble/22), counted as
-- 'repeated' by `expand`, `stats` and the reports, never stored.
-- IF NOT EXISTS: re-running the migrations from an older version leaves the column as it is
-- (DuckDB adds a NOT NULL column only without it, hence the second statement).
ALTER TABLE combination_products ADD COLUMN IF NOT EXISTS repeated BIGINT DEFAULT 0;
ALTER TABLE combination_products ALTER COLUMN repeated SET NOT NULL;
