-- 070_store_commits: count the store's committed writes, so that a write-ahead log that lost
-- committed transactions on replay is noticed on open (toolex.store.commits).
-- Reads: nothing. Creates: store_commits (one row of 1 per write transaction toolex commits;
-- compacted now and then into one row holding their sum), store_identity (one random id per
-- store: the count recorded beside the file belongs to this store, not to one made later at
-- the same path). Parameters: none. IF NOT EXISTS: a store whose recorded migrations were
-- rolled back by hand (tests/test_store.py's old stores) keeps its count.
CREATE TABLE IF NOT EXISTS store_commits (commits BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS store_identity AS SELECT CAST(uuid() AS VARCHAR) AS store_id;
