-- 012_library_has_tasks: whether a benchmark's items carry tasks (ToolRet) or form one pooled
-- library (StableToolBench), to resolve the retrieval scope 'auto'.
-- Reads: items. Creates: nothing. Parameters: $benchmark.
SELECT count(*) FILTER (WHERE task IS NOT NULL) > 0 AS has_tasks FROM items
WHERE benchmark = $benchmark;
