-- 47_drop_products: drop the assembly's scratch table once its combinations are stored.
-- Reads: nothing. Drops: TEMP TABLE assembled_products (30). Parameters: none.
DROP TABLE IF EXISTS assembled_products;
