-- 03_drop_products: drop the assembly's scratch tables once its combinations are stored.
-- Reads: nothing. Drops: TEMP TABLEs assembled_products (01) and the staging tables (08).
-- Parameters: none.
DROP TABLE IF EXISTS assembled_products;
DROP TABLE IF EXISTS assembly_round;
DROP TABLE IF EXISTS assembly_round_items;
DROP TABLE IF EXISTS assembled_combinations;
DROP TABLE IF EXISTS assembled_items;
DROP TABLE IF EXISTS assembled_rejected;
