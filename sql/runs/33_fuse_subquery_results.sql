-- Reads: subquery_results. Creates: run_results rows of one run, fused from its sub-query lists.
-- Parameters: $run_id, $k (RRF constant, 60). RRF as in ranx: score(item) = sum over the
-- query's sub-query lists of 1 / (k + rank), ranks 1-based; then trec_eval's rank rule.
INSERT INTO run_results (run_id, query_id, item_id, score, rank)
SELECT
    $run_id,
    query_id,
    item_id,
    fused,
    row_number() OVER (PARTITION BY query_id ORDER BY fused DESC, item_id DESC)
FROM (
    SELECT query_id, item_id, sum(1.0 / ($k + rank)) AS fused
    FROM subquery_results
    WHERE run_id = $run_id
    GROUP BY query_id, item_id
);
