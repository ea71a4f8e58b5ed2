-- Reads: item_docs, new_item_docs (registered Arrow table). Creates: nothing (one row).
-- Parameters: $benchmark, $rendering. Counts stored rows of the rendering and how many of the
-- new rows differ from them, so reloading the same file is a no-op.
SELECT
    (SELECT count(*) FROM item_docs
      WHERE benchmark = $benchmark AND rendering = $rendering) AS stored,
    (SELECT count(*) FROM (
        SELECT item_id, CAST(CAST(doc AS JSON) AS VARCHAR), text FROM new_item_docs
        EXCEPT
        SELECT item_id, CAST(doc AS VARCHAR), text FROM item_docs
         WHERE benchmark = $benchmark AND rendering = $rendering)) AS changed;
