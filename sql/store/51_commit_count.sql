-- 51_commit_count: the store's id, how many write transactions it holds, and in how many rows.
-- Reads: store_identity, store_commits (a store before schema 70 has neither: the caller
-- treats the missing table as "not counted yet"). Creates: nothing (one row).
-- Parameters: none.
SELECT (SELECT store_id FROM store_identity LIMIT 1) AS store_id,
       coalesce(sum(commits), 0) AS commits,
       count(*) AS n_rows
FROM store_commits;
