-- 066_rejected_counted: combination_products.rejected_platform, the combinations the dependency
-- rule rejected during the assembly, counted per query instead of stored as rows.
-- Reads: combination_products. Creates: its column rejected_platform (0 on the rows of queries
-- assembled before, whose rejections are rows in combinations). Parameters: none.
-- Why: at library scale the rule rejects nearly every combination of a query with dependent
-- slots (a 50k-tool library with each top 20 spread over 20 platforms: 4.0 M rejected rows
-- beside 2.7 M pending for 10,000 queries), so finding the budget's pending ones enumerated
-- most of the product, and staging those rows took DuckDB past its memory limit. A rejected
-- combination is never audited and never relevant, so its count says all the reports need.
-- The product of an assembled query now splits as product = stored + rejected_platform + unstored:
-- stored = rows in combinations (the original, pending ones, and the rule's rejections only on
-- queries assembled before this schema); rejected_platform = combinations ranked up to the query's
-- budget-th pending one that the rule (sql/stages/4_assemble/11, 12) rejected, not stored, counted
-- as status 'rejected_platform' by `expand`, `stats` and the reports; unstored = the rest, beyond
-- the budget, never audited: 'cut'.
-- IF NOT EXISTS: re-running the migrations from an older version leaves the column as it is
-- (DuckDB adds a NOT NULL column only without it, hence the second statement).
ALTER TABLE combination_products ADD COLUMN IF NOT EXISTS rejected_platform BIGINT DEFAULT 0;
ALTER TABLE combination_products ALTER COLUMN rejected_platform SET NOT NULL;
