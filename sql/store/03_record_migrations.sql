-- 03_record_migrations: note that schema files were applied, all in one statement (one INSERT
-- per file was a third of what creating a store costs toolex beyond DuckDB's own DDL).
-- Reads: nothing. Creates: one schema_version row per file.
-- Parameters: $versions INTEGER[] (the files' numbers), $names VARCHAR[] (their file names, in
-- the same order).
INSERT INTO schema_version (version, name)
SELECT unnest($versions::INTEGER[]), unnest($names::VARCHAR[]);
