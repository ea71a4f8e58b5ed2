-- 41_tables: every table of the store (not temporary ones), by name.
-- Reads: duckdb_tables(). Creates: nothing (a result set table_name). Parameters: none.
SELECT table_name
FROM duckdb_tables()
WHERE database_name = current_database() AND NOT temporary
ORDER BY table_name;
