-- 010_library: the library one retriever searches, as text, with the scope columns.
-- Reads: items, item_docs. Creates: nothing (a query; rows item_id, task, category, text).
-- Parameters: $benchmark, $rendering ('default' = items.text, else item_docs.text of that name).
-- Ordered by item_id so every index built from it lists items in the same order.
SELECT i.item_id, i.task, i.category,
       CASE WHEN $rendering = 'default' THEN i.text ELSE d.text END AS text
FROM items AS i
LEFT JOIN item_docs AS d
       ON d.benchmark = i.benchmark AND d.item_id = i.item_id AND d.rendering = $rendering
WHERE i.benchmark = $benchmark
  AND ($rendering = 'default' OR d.text IS NOT NULL)
ORDER BY i.item_id
