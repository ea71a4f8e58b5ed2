-- 60_doc_lengths: documentation length of every tool, in whitespace-separated words.
-- Reads: items. Creates: nothing. Parameters: $benchmarks VARCHAR[].
-- Length is that of items.text, the one rendering every retriever and judge sees
-- (toolex.tooldoc.render.render_doc), so it is what a retriever's input limit truncates.
SELECT
    benchmark,
    coalesce(category, '(none)') AS category,
    item_id,
    len(string_split_regex(trim(text), '\s+')) AS n_words
FROM items
WHERE list_contains($benchmarks::VARCHAR[], benchmark)
ORDER BY benchmark, category, item_id;
