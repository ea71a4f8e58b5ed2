-- Reads: new_results (registered Arrow table). Creates: nothing (one row).
-- Parameters: none. Rows minus distinct hashes of (query, slot, item): zero proves no item is
-- listed twice at a third of the cost of 21_duplicate_results.sql's string GROUP BY, which then
-- runs only when this is not zero (a duplicate, or a hash collision that it rules out).
SELECT count(*) - count(DISTINCT hash(query_id, slot, item_id)) AS n
FROM new_results;
