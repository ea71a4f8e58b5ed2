-- 52_compact_commits: replace store_commits' rows by one holding their sum (the count itself
-- is unchanged), run in a transaction when the rows have piled up.
-- Reads: store_commits. Creates: the one row. Parameters: none.
CREATE OR REPLACE TEMP TABLE store_commits_total AS
SELECT coalesce(sum(commits), 0) AS commits FROM store_commits;
DELETE FROM store_commits;
INSERT INTO store_commits SELECT commits FROM store_commits_total;
DROP TABLE store_commits_total;
