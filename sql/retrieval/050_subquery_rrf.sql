-- 050_subquery_rrf: fuse the per-sub-query lists of a sub-query-level run into its run_results.
-- Reads: subquery_results. Creates: rows in run_results for $run_id.
-- Parameters: $run_id, $rrf_k (60), $k (how many fused items to keep per query).
-- score(item) = sum over the query's sub-queries s of 1 / ($rrf_k + rank_s(item)), ranks 1-based
-- (ranx's `rrf`), for any number of sub-queries. Ties: score DESC, then item_id DESC.
INSERT INTO run_results (run_id, query_id, item_id, score, rank)
SELECT $run_id, query_id, item_id, score, rank
FROM (
    SELECT query_id, item_id, score,
           CAST(row_number() OVER (PARTITION BY query_id
                                   ORDER BY score DESC, item_id DESC) AS INTEGER) AS rank
    FROM (
        SELECT query_id, item_id, sum(1.0 / ($rrf_k + rank)) AS score
        FROM subquery_results
        WHERE run_id = $run_id
        GROUP BY query_id, item_id
    )
)
WHERE rank <= $k
