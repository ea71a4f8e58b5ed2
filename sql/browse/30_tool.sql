-- 30_tool: one item with its raw documentation and platform.
-- Reads: items. Creates: nothing. Parameters: $benchmark, $item_id.
SELECT item_id, name, kind, platform, task, category, doc, text
FROM items
WHERE benchmark = $benchmark AND item_id = $item_id
