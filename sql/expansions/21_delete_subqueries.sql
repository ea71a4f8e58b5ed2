-- 21_delete_subqueries: a sub-queries import's --replace swap.
-- Reads: new_subqueries (registered). Deletes: the expansion's sub-queries of every query the
-- import covers (the --replace swap). Parameters: $benchmark, $expansion.
DELETE FROM subqueries
WHERE benchmark = $benchmark AND expansion = $expansion
  AND query_id IN (SELECT query_id FROM new_subqueries);
