-- 80_trust_config: the recorded settings of one expansion (its judges among them), if any.
-- Reads: expansions. Creates: nothing (zero or one row). Parameters: $benchmark, $expansion.
-- toolex.reports.trust reads the judge of each stage from config.judges (stage -> spec) or, in
-- older stores, config.judge (one spec for every stage, or the same mapping).
SELECT config
FROM expansions
WHERE benchmark = $benchmark AND expansion = $expansion
