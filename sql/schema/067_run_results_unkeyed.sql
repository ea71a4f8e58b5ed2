-- 067_run_results_unkeyed: run_results and subquery_results without their PRIMARY KEYs.
-- Reads: run_results, subquery_results. Creates: both tables again (same columns and rows, no
-- key). Parameters: none.
-- Why: the keys' indexes (ARTs over three or four strings per row) made a run's insert cost
-- three times the rest of its import (a 690,795-row StableToolBench run: 1.3 CPU-s of insert, 0.4
-- without the key; benchmarks/bench_run_import.py), and DuckDB keeps them in memory and cannot
-- evict them (combination_items, schema 065: the same problem at library scale). Nothing reads
-- either table by its key (DuckDB's index scans serve single-column keys), and nothing needs the
-- key to stay unique: toolex.runs.write is the only writer, a run is written whole in one
-- transaction under a name checked free, an import refuses an item listed twice for a query
-- before writing (sql/runs/21, 23), and a retriever ranks each item once. The checks
-- run_results_unique and subquery_results_unique state the invariant the keys held.
CREATE TABLE run_results_unkeyed (
    run_id      VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    item_id     VARCHAR NOT NULL,
    score       DOUBLE NOT NULL,
    rank        INTEGER NOT NULL
);
INSERT INTO run_results_unkeyed
SELECT run_id, query_id, item_id, score, rank FROM run_results ORDER BY run_id, query_id, rank;
DROP TABLE run_results;
ALTER TABLE run_results_unkeyed RENAME TO run_results;

CREATE TABLE subquery_results_unkeyed (
    run_id      VARCHAR NOT NULL,
    query_id    VARCHAR NOT NULL,
    slot        INTEGER NOT NULL,
    item_id     VARCHAR NOT NULL,
    score       DOUBLE NOT NULL,
    rank        INTEGER NOT NULL
);
INSERT INTO subquery_results_unkeyed
SELECT run_id, query_id, slot, item_id, score, rank FROM subquery_results
ORDER BY run_id, query_id, slot, rank;
DROP TABLE subquery_results;
ALTER TABLE subquery_results_unkeyed RENAME TO subquery_results;
