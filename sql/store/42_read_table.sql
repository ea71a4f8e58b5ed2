-- 42_read_table: read one table in full (every column of every row goes through hash), so a
-- block that is missing or fails its checksum raises here instead of in a later command.
-- Reads: the table named $table (a name from 41_tables.sql). Creates: nothing (one row).
-- Parameters: $table (VARCHAR).
SELECT count(*) AS n, bit_xor(hash(t)) AS digest
FROM query_table($table) AS t;
