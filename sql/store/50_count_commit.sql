-- 50_count_commit: count one committed write, inside the transaction that commits it (lost
-- with it if the write-ahead log loses it).
-- Reads: nothing. Creates: one store_commits row. Parameters: none.
INSERT INTO store_commits VALUES (1);
