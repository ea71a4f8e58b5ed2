-- Reads: runs, run_results. Creates: nothing (rows). Parameters: $benchmark (NULL = all).
-- One row per run with how many queries and results it holds.
SELECT
    r.run_id AS run,
    r.benchmark,
    r.level,
    r.retriever,
    r.source,
    count(DISTINCT rr.query_id) AS queries,
    count(rr.item_id) AS results,
    r.created_at
FROM runs AS r
LEFT JOIN run_results AS rr ON rr.run_id = r.run_id
WHERE $benchmark IS NULL OR r.benchmark = $benchmark
GROUP BY ALL
ORDER BY r.created_at, r.run_id;
