-- 01_item_docs: the raw documentation and rendered text of every item (judge IDF, label checks).
-- Reads: items. Creates: nothing (a SELECT). Parameters: $benchmark (NULL = every benchmark).
SELECT item_id, name, platform, doc, text
FROM items
WHERE $benchmark IS NULL OR benchmark = $benchmark
ORDER BY benchmark, item_id;
