-- 20_table_counts: every table of the store with its number of rows, for `toolex info` and
-- `toolex sql --tables`.
-- Reads: duckdb_tables() (the catalog). Creates: nothing. Parameters: none.
-- estimated_size is the committed row count DuckDB keeps per table; reading it needs no
-- statement per table (so no table name is ever formatted into SQL).
SELECT table_name AS "table", estimated_size AS "rows"
FROM duckdb_tables()
WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary
ORDER BY table_name
