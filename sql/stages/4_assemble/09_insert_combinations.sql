-- 09_insert_combinations: stage a batch of ranked combinations; the original is valid, the rest
-- pending. Reads: stage_rows (a registered batch from toolex.pipeline.assemble: query_id, combo_id,
-- rrf, rrf_rank, is_original, items). Creates: assembly_round rows (08; expansions/31 stores them
-- in combinations once the rules have judged them). Parameters: $benchmark, $expansion.
INSERT INTO assembly_round (benchmark, expansion, query_id, combo_id, rrf, rrf_rank, is_original,
                            status, reason, judge)
SELECT $benchmark, $expansion, query_id, combo_id, rrf, rrf_rank, is_original,
       CASE WHEN is_original THEN 'valid' ELSE 'pending' END,
       CASE WHEN is_original THEN 'original annotation' END,
       CASE WHEN is_original THEN 'reference' END
FROM stage_rows;
