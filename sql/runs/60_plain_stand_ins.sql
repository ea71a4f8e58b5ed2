-- 60_plain_stand_ins: empty connection-local stand-ins for the tables `toolex eval --run-file
-- --qrels-file` reads besides the labels and the runs, in a store with no schema
-- (Store.scratch; toolex.runs.plain): the run tables it fills (61-64) and the expansion tables
-- it only looks into (no expansion: new = old).
-- Reads: nothing. Creates: TEMP TABLEs runs, run_results, subquery_results, expansions,
-- subqueries, combinations, combination_items. Parameters: none.
-- Each column is typed as in the schema (sql/schema/; tests/runs/test_plain.py compares them
-- with DESCRIBE); subqueries holds only the columns the existence checks read.
CREATE TEMP TABLE runs (
    run_id VARCHAR NOT NULL, benchmark VARCHAR NOT NULL, level VARCHAR NOT NULL,
    retriever VARCHAR, source VARCHAR, params JSON,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
CREATE TEMP TABLE run_results (
    run_id VARCHAR NOT NULL, query_id VARCHAR NOT NULL, item_id VARCHAR NOT NULL,
    score DOUBLE NOT NULL, rank INTEGER NOT NULL
);
CREATE TEMP TABLE subquery_results (
    run_id VARCHAR NOT NULL, query_id VARCHAR NOT NULL, slot INTEGER NOT NULL,
    item_id VARCHAR NOT NULL, score DOUBLE NOT NULL, rank INTEGER NOT NULL
);
CREATE TEMP TABLE expansions (
    benchmark VARCHAR NOT NULL, expansion VARCHAR NOT NULL, config JSON,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
CREATE TEMP TABLE subqueries (
    benchmark VARCHAR NOT NULL, expansion VARCHAR NOT NULL, query_id VARCHAR NOT NULL,
    slot INTEGER NOT NULL
);
CREATE TEMP TABLE combinations (
    benchmark VARCHAR NOT NULL, expansion VARCHAR NOT NULL, query_id VARCHAR NOT NULL,
    combo_id INTEGER NOT NULL, rrf DOUBLE, rrf_rank INTEGER, is_original BOOLEAN NOT NULL,
    status VARCHAR NOT NULL, reason VARCHAR, judge VARCHAR, call_id VARCHAR,
    dependency_check VARCHAR
);
CREATE TEMP TABLE combination_items (
    benchmark VARCHAR NOT NULL, expansion VARCHAR NOT NULL, query_id VARCHAR NOT NULL,
    combo_id INTEGER NOT NULL, slot INTEGER NOT NULL, item_id VARCHAR NOT NULL
);
