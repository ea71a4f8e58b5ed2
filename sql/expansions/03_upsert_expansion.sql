-- 03_upsert_expansion: register a named expansion with the settings and judges its stages ran
-- with (toolex.pipeline.record, through toolex.expansions.record_config: only stages that wrote
-- outputs). Reads: nothing. Creates/updates: an expansions row.
-- Parameters: $benchmark, $expansion, $config (JSON).
INSERT INTO expansions (benchmark, expansion, config) VALUES ($benchmark, $expansion, $config)
ON CONFLICT DO UPDATE SET config = excluded.config;
