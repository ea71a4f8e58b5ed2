-- 40_database_size: the block size and the number of blocks the open store's header claims,
-- and how many of them hold data (a file shorter than block_size * used_blocks has been
-- truncated; free blocks at the end of the file may be gone, DuckDB trims them itself).
-- Reads: pragma_database_size(). Creates: nothing (one row). Parameters: none.
SELECT block_size, total_blocks, used_blocks
FROM pragma_database_size()
WHERE database_name = current_database();
