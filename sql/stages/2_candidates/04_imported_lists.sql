-- 04_imported_lists: whether an expansion's candidate lists were imported (`toolex load
-- candidates` stores them with retriever 'import:<name>'), and which selected queries lack a list
-- for a sub-query (or have no sub-queries yet), so that a run told to use imported lists, or run
-- over an expansion that holds some, never retrieves others in their place without a word.
-- Reads: candidates, subqueries. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]: the run's queries).
-- Returns one row: imported (sub-queries of the expansion with an imported list), source (the
--   retriever an import recorded), missing_subqueries and missing_queries (selected sub-queries
--   with no list, and their queries), unsplit_queries (selected queries with no sub-queries),
--   first_missing ('<query_id>#<slot>', else the first query with no sub-queries).
WITH lists AS (
    SELECT DISTINCT query_id, slot, retriever FROM candidates
    WHERE benchmark = $benchmark AND expansion = $expansion
), chosen AS (
    SELECT unnest($query_ids) AS query_id
), subs AS (
    SELECT s.query_id, s.slot FROM subqueries AS s JOIN chosen USING (query_id)
    WHERE s.benchmark = $benchmark AND s.expansion = $expansion
), missing AS (
    SELECT query_id, slot FROM subs ANTI JOIN lists USING (query_id, slot)
), unsplit AS (
    SELECT query_id FROM chosen ANTI JOIN subs USING (query_id)
)
SELECT
    (SELECT count(*) FROM lists WHERE starts_with(retriever, 'import:')) AS imported,
    (SELECT min(retriever) FROM lists WHERE starts_with(retriever, 'import:')) AS source,
    (SELECT count(*) FROM missing) AS missing_subqueries,
    (SELECT count(DISTINCT query_id) FROM missing) AS missing_queries,
    (SELECT count(*) FROM unsplit) AS unsplit_queries,
    coalesce(
        (SELECT query_id || '#' || slot FROM missing ORDER BY query_id, slot LIMIT 1),
        (SELECT min(query_id) FROM unsplit)
    ) AS first_missing
