-- 01_ensure_expansion: the expansions row an import writes into (toolex.expansions.originals).
-- Reads: nothing. Creates: the expansions row an import writes into, unless it exists.
-- Parameters: $benchmark, $expansion, $config (JSON text saying where the rows came from).
INSERT INTO expansions (benchmark, expansion, config)
VALUES ($benchmark, $expansion, CAST($config AS JSON))
ON CONFLICT DO NOTHING;
