-- 01_schema_version: the store's schema version (the newest applied schema file), NULL if none.
-- Reads: schema_version (a missing table raises, which the store reads as version 0).
-- Creates: nothing. Parameters: none.
SELECT max(version) FROM schema_version
