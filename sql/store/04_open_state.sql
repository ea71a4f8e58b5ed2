-- 04_open_state: what opening a store reads before anything else, in one statement: its schema
-- version (01_schema_version) and its id, commits and commit rows (51_commit_count).
-- Reads: schema_version, store_identity, store_commits (a store before schema 70, or a new one,
-- lacks one of them: the missing table raises, and the caller reads each apart).
-- Creates: nothing (one row). Parameters: none.
SELECT (SELECT max(version) FROM schema_version) AS schema_version,
       (SELECT store_id FROM store_identity LIMIT 1) AS store_id,
       coalesce(sum(commits), 0) AS commits,
       count(*) AS n_rows
FROM store_commits;
