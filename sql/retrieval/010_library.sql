-- 010_library: the library one retriever searches, as text, with the scope columns.
-- Reads: items, item_docs. Creates: nothing (a query; rows item_id, task, category, text,
-- fallback). Parameters: $benchmark, $rendering ('default' = items.text, else item_docs.text of
-- that name).
-- Every item of the benchmark is searched: an item the rendering does not document keeps its
-- default text (fallback = true, counted and reported by the caller), so a rendering loaded for
-- one task never shrinks the library the others are searched in.
-- Ordered by item_id so every index built from it lists items in the same order.
SELECT i.item_id, i.task, i.category,
       CASE WHEN $rendering = 'default' THEN i.text ELSE coalesce(d.text, i.text) END AS text,
       ($rendering <> 'default' AND d.text IS NULL) AS fallback
FROM items AS i
LEFT JOIN item_docs AS d
       ON d.benchmark = i.benchmark AND d.item_id = i.item_id AND d.rendering = $rendering
WHERE i.benchmark = $benchmark
ORDER BY i.item_id
