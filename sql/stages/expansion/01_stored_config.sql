-- 01_stored_config: the settings an expansion recorded (zero or one row).
-- Reads: expansions. Creates: nothing. Parameters: $benchmark, $expansion.
SELECT CAST(config AS VARCHAR) AS config
FROM expansions WHERE benchmark = $benchmark AND expansion = $expansion;
