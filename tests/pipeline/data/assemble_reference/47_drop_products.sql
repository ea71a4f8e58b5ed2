-- 47_drop_products: drop the assembly's scratch tables once its combinations are stored.
-- Reads: nothing. Drops: TEMP TABLEs assembled_products (30) and ranked_products (31).
-- Parameters: none.
DROP TABLE IF EXISTS ranked_products;
DROP TABLE IF EXISTS assembled_products;
