-- 03_record_migration: note that one schema file was applied.
-- Reads: nothing. Creates: one schema_version row.
-- Parameters: $version INTEGER (the file's number), $name VARCHAR (its file name).
INSERT INTO schema_version (version, name) VALUES ($version, $name)
