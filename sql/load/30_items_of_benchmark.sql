-- Reads: items. Creates: nothing (rows). Parameters: $benchmark.
-- The ids, names and platforms an alternative documentation file is checked and rendered against
-- (platform_source: a platform derived from the docs is not rendered, as in items.text).
SELECT item_id, name, platform, platform_source
FROM items
WHERE benchmark = $benchmark;
