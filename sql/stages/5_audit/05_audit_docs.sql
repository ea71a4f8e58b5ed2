-- 05_audit_docs: the documentation of the tools one group of audited combinations names.
-- Reads: items. Creates: nothing. Parameters: $benchmark, $item_ids (VARCHAR[]).
SELECT item_id, name, platform, doc, text, kind
FROM items
WHERE benchmark = $benchmark AND list_contains($item_ids, item_id);
