-- Reads: new_items (an Arrow table registered by the loader). Creates: items rows.
-- Parameters: $benchmark. doc arrives as JSON text and is stored as DuckDB JSON.
INSERT INTO items (benchmark, item_id, kind, name, platform, task, category, doc, text)
SELECT $benchmark, item_id, kind, name, platform, task, category, CAST(doc AS JSON), text
FROM new_items;
