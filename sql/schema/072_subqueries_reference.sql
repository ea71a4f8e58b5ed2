-- 072_subqueries_reference: the ground-truth tool of a sub-query's slot is subqueries.reference
-- (stores made before this version call the column ref_item_id).
-- Reads: subqueries. Creates: subqueries again (same rows, key and NOT NULLs; the column
-- named reference). Parameters: none.
-- Why: the ground-truth tool of a slot went by several names (ref_item_id in this table,
-- reference in labels, review and the exports, is_ref beside is_reference in the stages); it is
-- `reference` everywhere now, `is_reference` for the test (docs/concepts.md, "Vocabulary",
-- read against the code by tests/test_vocabulary.py).
-- The table is rebuilt rather than altered because the migrations must also hold when they run
-- again from an older version over a store already renamed (tests/test_store.py re-runs them):
-- the regular expression takes the old column where there is one and the new one otherwise,
-- so one file serves both; 001_base.sql creates the new name in a new store.
CREATE TABLE subqueries_renamed (
    benchmark   VARCHAR NOT NULL,
    expansion   VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    slot        INTEGER NOT NULL,
    text        VARCHAR NOT NULL,
    operation   VARCHAR,
    entity      VARCHAR,
    reference   VARCHAR NOT NULL,
    judge       VARCHAR,
    call_id     VARCHAR,
    PRIMARY KEY (benchmark, expansion, query_id, slot)
);
INSERT INTO subqueries_renamed
SELECT benchmark, expansion, query_id, slot, text, operation, entity,
       COLUMNS('^(ref_item_id|reference)$'), judge, call_id
FROM subqueries
ORDER BY benchmark, expansion, query_id, slot;
DROP TABLE subqueries;
ALTER TABLE subqueries_renamed RENAME TO subqueries;
