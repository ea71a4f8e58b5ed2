-- Reads: new_qrels (registered Arrow table). Creates: qrels rows (the original combination,
-- slot = position of the label in it). Parameters: $benchmark.
INSERT INTO qrels (benchmark, query_id, item_id, relevance, slot)
SELECT $benchmark, query_id, item_id, relevance, slot
FROM new_qrels;
