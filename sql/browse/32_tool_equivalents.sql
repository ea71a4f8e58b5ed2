-- 32_tool_equivalents: an item's equivalents across all queries of an expansion: the items it was
-- accepted in place of ('replaces': it was the candidate) and those accepted in its place
-- ('replaced by': it was the reference), with the steps and queries behind each and one of the
-- sub-queries the equivalence holds under.
-- Reads: verdicts, subqueries, items. Creates: nothing.
-- Parameters: $benchmark, $expansion, $item_id, $limit (rows at most).
WITH edges AS (
    SELECT s.reference, v.item_id AS candidate, v.query_id, s.text AS subquery
    FROM verdicts v
    JOIN subqueries s ON s.benchmark = v.benchmark AND s.expansion = v.expansion
         AND s.query_id = v.query_id AND s.slot = v.slot
    WHERE v.benchmark = $benchmark AND v.expansion = $expansion AND v.accepted
      AND v.item_id <> s.reference
      AND (v.item_id = $item_id OR s.reference = $item_id)
),
sided AS (
    SELECT CASE WHEN candidate = $item_id THEN 'replaces' ELSE 'replaced by' END AS relation,
           CASE WHEN candidate = $item_id THEN reference ELSE candidate END AS other,
           query_id, subquery
    FROM edges
),
grouped AS (
    SELECT s.relation, s.other AS item_id, i.name, i.platform,
           count(*) AS steps, count(DISTINCT s.query_id) AS queries, min(s.subquery) AS subquery
    FROM sided s
    LEFT JOIN items i ON i.benchmark = $benchmark AND i.item_id = s.other
    GROUP BY ALL
)
SELECT * FROM grouped
ORDER BY steps DESC, relation, natural_key(item_id), item_id
LIMIT $limit
