-- 50_direct_tables: connection-local stand-ins for the run tables, for scoring run files against
-- a stored benchmark without writing to the store (toolex.runs.direct, `toolex eval --run-file`).
-- Reads: runs, run_results, subquery_results (their columns only). Creates: TEMP TABLEs runs,
-- run_results, subquery_results, empty, with the same columns. Parameters: none.
-- DuckDB resolves a name in the temp schema first, so on this connection every query (the
-- metric macros included) sees these tables instead of the stored ones; a read-only store
-- accepts them, and they vanish when the connection closes.
CREATE TEMP TABLE runs AS SELECT * FROM runs LIMIT 0;
CREATE TEMP TABLE run_results AS SELECT * FROM run_results LIMIT 0;
CREATE TEMP TABLE subquery_results AS SELECT * FROM subquery_results LIMIT 0;
