-- 54_item_docs: the raw documentation of some items, as loaded, for reviewers to read side by
-- side (reference and candidate; the ground-truth and the proposed combination).
-- Reads: items. Creates: nothing. Parameters: $benchmark, $item_ids (list).
SELECT item_id, name, platform, doc
FROM items
WHERE benchmark = $benchmark AND list_contains($item_ids, item_id)
ORDER BY item_id
