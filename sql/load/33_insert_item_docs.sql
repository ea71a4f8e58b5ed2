-- Reads: new_item_docs (registered Arrow table). Creates: item_docs rows of one rendering.
-- Parameters: $benchmark, $rendering.
INSERT INTO item_docs (benchmark, item_id, rendering, doc, text)
SELECT $benchmark, item_id, $rendering, CAST(doc AS JSON), text
FROM new_item_docs;
