-- 013_library_fingerprint: a cheap content fingerprint of the library 010_library returns, so a
-- library (and the BM25 indexes built from it) loaded once is reused until its content changes.
-- Reads: items, item_docs. Creates: nothing (one row n, h). Parameters: $benchmark, $rendering.
-- h sums a 64-bit hash of every (item_id, task, category, text searched); any edit changes it,
-- a rendering's document added or removed included.
SELECT count(*) AS n,
       coalesce(sum(hash(i.item_id, i.task, i.category,
                         CASE WHEN $rendering = 'default' THEN i.text
                              ELSE coalesce(d.text, i.text) END,
                         d.text IS NULL)::HUGEINT), 0)
           ::VARCHAR AS h
FROM items AS i
LEFT JOIN item_docs AS d
       ON d.benchmark = i.benchmark AND d.item_id = i.item_id AND d.rendering = $rendering
WHERE i.benchmark = $benchmark
