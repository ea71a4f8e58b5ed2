-- 05_item_docs: the raw documentation of every item, for the heuristic judge's IDF table.
-- Reads: items. Creates: nothing (a SELECT). Parameters: $benchmark (NULL = every benchmark).
SELECT item_id, name, platform, doc
FROM items
WHERE $benchmark IS NULL OR benchmark = $benchmark
ORDER BY benchmark, item_id;
