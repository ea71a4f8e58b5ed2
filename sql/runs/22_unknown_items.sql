-- Reads: new_results (registered Arrow table), items. Creates: nothing (one row).
-- Parameters: $benchmark. Items a run returns that the library lacks (kept: they simply are not
-- relevant), counted so the import can warn about a run made against another corpus.
SELECT count(DISTINCT r.item_id) AS n_items
FROM new_results AS r
ANTI JOIN (SELECT item_id FROM items WHERE benchmark = $benchmark) AS i
    ON i.item_id = r.item_id;
