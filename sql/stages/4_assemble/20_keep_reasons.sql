-- 20_keep_reasons: keep the judged batch's rejections, with their members and reasons, up to
-- $keep per query (the best ranked: the enumeration goes in rank order), before 15 counts them
-- and drops them.
-- Reads: assembly_round, assembly_round_items (08; judged by 11 and 12, cut by 13 and 14),
-- assembled_reasons (08: what earlier batches kept). Creates: assembled_reasons rows (08).
-- Parameters: $keep (INTEGER >= 0).
-- At most $keep rows per query, whatever its product: the reasons cost what the keep allows,
-- never what the rule rejects (schema 068).
INSERT INTO assembled_reasons
WITH kept AS (
    SELECT query_id, count(*) AS n FROM assembled_reasons GROUP BY query_id
)
SELECT r.query_id, r.rrf_rank,
       (SELECT list(i.item_id ORDER BY i.slot) FROM assembly_round_items i
        WHERE i.query_id = r.query_id AND i.combo_id = r.combo_id) AS items,
       r.reason
FROM assembly_round r
LEFT JOIN kept k ON k.query_id = r.query_id
WHERE r.status = 'rejected_platform' AND coalesce(k.n, 0) < $keep
QUALIFY row_number() OVER (PARTITION BY r.query_id ORDER BY r.rrf_rank) <= $keep - coalesce(k.n, 0);
