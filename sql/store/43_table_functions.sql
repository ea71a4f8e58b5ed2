-- 43_table_functions: every table function, table macro and pragma this DuckDB knows, by name
-- (what a read-only `toolex sql` allows only a few of: toolex.sqlaccess.readonly).
-- Reads: duckdb_functions() (the catalog). Creates: nothing. Parameters: none.
SELECT DISTINCT lower(function_name) AS name
FROM duckdb_functions()
WHERE function_type IN ('table', 'table_macro', 'pragma')
ORDER BY name
