-- Reads: run_items (Arrow table registered by the run import: each distinct item id of the
-- file once), items. Creates: nothing (one row).
-- Parameters: $benchmark. Items a run returns that the library lacks (kept: they simply are not
-- relevant), counted so the import can warn about a run made against another corpus.
SELECT count(*) AS n_items
FROM run_items AS r
ANTI JOIN (SELECT item_id FROM items WHERE benchmark = $benchmark) AS i
    ON i.item_id = r.item_id;
