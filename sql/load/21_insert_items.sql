-- 21_insert_items: a load's items. Reads: new_items (an Arrow table registered by the loader).
-- Creates: items rows. Parameters: $benchmark. doc arrives as JSON text and is stored as DuckDB
-- JSON; platform_source says where the platform came from (toolex.loaders.platforms).
INSERT INTO items (benchmark, item_id, kind, name, platform, task, category, doc, text,
                   platform_source)
SELECT $benchmark, item_id, kind, name, platform, task, category, CAST(doc AS JSON), text,
       platform_source
FROM new_items;
