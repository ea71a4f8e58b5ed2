-- 32_insert_combinations: store the ranked combinations; the original is valid, the rest pending.
-- Reads: ranked_products (31). Creates: combinations rows. Parameters: $benchmark, $expansion.
INSERT INTO combinations (benchmark, expansion, query_id, combo_id, rrf, rrf_rank, is_original,
                          status, reason, judge)
SELECT $benchmark, $expansion, query_id, combo_id, rrf, rrf_rank, is_original,
       CASE WHEN is_original THEN 'valid' ELSE 'pending' END,
       CASE WHEN is_original THEN 'original annotation' END,
       CASE WHEN is_original THEN 'reference' END
FROM ranked_products
ON CONFLICT DO NOTHING;
