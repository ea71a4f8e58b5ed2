-- 02_create_schema_version: the table recording which sql/schema/ files were applied.
-- Reads: nothing. Creates: schema_version (if missing). Parameters: none.
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    name VARCHAR NOT NULL,
    applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
