-- 065_combination_items_unkeyed: combination_items without its PRIMARY KEY.
-- Reads: combination_items. Creates: combination_items (same columns and rows, no key).
-- Parameters: none.
-- Why: DuckDB keeps a key's index (an ART) in memory and cannot evict it, and this table gets k
-- rows per stored combination: assembling 10,000 queries of a 50k-tool library stored 26 M
-- members, and their index alone kept the process above 3.8 GB whatever DuckDB's memory limit
-- (it failed with an out-of-memory at 2 GB). Nothing reads the table by key (DuckDB's index
-- scans serve single-column keys), and nothing needs the key to stay unique: the assembly writes
-- the members of a query only with its combinations, whose key stays and refuses a repeat, and
-- an import refuses a slot given twice before writing. sql/checks/pipeline_combination_items_unique
-- states the invariant the key held, for `toolex check`.
CREATE TABLE combination_items_unkeyed (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    combo_id    INTEGER NOT NULL,
    slot        INTEGER NOT NULL,
    item_id     VARCHAR NOT NULL
);
INSERT INTO combination_items_unkeyed
SELECT benchmark, expansion, query_id, combo_id, slot, item_id FROM combination_items
ORDER BY benchmark, expansion, query_id, combo_id, slot;
DROP TABLE combination_items;
ALTER TABLE combination_items_unkeyed RENAME TO combination_items;
