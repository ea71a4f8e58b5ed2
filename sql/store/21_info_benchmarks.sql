-- 21_info_benchmarks: one row per benchmark with its item, query and label counts.
-- Reads: benchmarks, items, queries, qrels. Creates: nothing. Parameters: none.
SELECT b.benchmark, b.format,
       (SELECT count(*) FROM items AS i WHERE i.benchmark = b.benchmark) AS items,
       (SELECT count(*) FROM queries AS q WHERE q.benchmark = b.benchmark) AS queries,
       (SELECT count(*) FROM qrels AS r WHERE r.benchmark = b.benchmark) AS labels,
       b.source
FROM benchmarks AS b
ORDER BY b.benchmark
