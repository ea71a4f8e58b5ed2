-- 28_note_candidate_import: record in the expansion's config where imported candidates came from
-- (key "imported_candidates"; toolex.pipeline.record keeps keys it does not own).
-- Reads: expansions. Updates: one expansions row's config. Parameters: $benchmark, $expansion,
-- $patch (JSON text merged into the config).
UPDATE expansions
SET config = json_merge_patch(coalesce(config, '{}'::JSON), CAST($patch AS JSON))
WHERE benchmark = $benchmark AND expansion = $expansion;
