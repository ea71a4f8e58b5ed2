-- Reads: new_results (registered Arrow table). Creates: nothing (at most one row).
-- Parameters: none. The first (query, slot, item) listed twice: a run ranks an item once.
-- Run only to name the repeat that toolex.runs.codes.repeated found over the rows' codes.
SELECT query_id, slot, item_id, min(line) AS first_line, max(line) AS line
FROM new_results
GROUP BY query_id, slot, item_id
HAVING count(*) > 1
ORDER BY line
LIMIT 1;
