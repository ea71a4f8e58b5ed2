-- Reads: items. Creates: nothing (rows). Parameters: $benchmark.
-- The ids, names and platforms an alternative documentation file is checked and rendered against.
SELECT item_id, name, platform
FROM items
WHERE benchmark = $benchmark;
