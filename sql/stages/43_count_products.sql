-- 43_count_products: how many queries and combinations this assembly produced.
-- Reads: ranked_products (31). Creates: nothing. Parameters: none.
SELECT count(DISTINCT query_id) AS queries, count(*) AS combinations FROM ranked_products;
