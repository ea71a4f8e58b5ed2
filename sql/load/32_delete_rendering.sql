-- Reads: nothing. Deletes: the item_docs rows of one rendering of one benchmark.
-- Parameters: $benchmark, $rendering.
DELETE FROM item_docs WHERE benchmark = $benchmark AND rendering = $rendering;
