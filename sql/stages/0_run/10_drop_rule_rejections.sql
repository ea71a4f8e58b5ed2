-- 10_drop_rule_rejections: `toolex expand --replace` drops the expansion's kept rule rejections
-- (schema 068) before it recomputes; toolex.pipeline.record.drop_outputs runs it in one
-- transaction with the other drops. Reads: rule_rejections. Deletes: rule_rejections rows.
-- Parameters: $benchmark, $expansion.
DELETE FROM rule_rejections WHERE benchmark = $benchmark AND expansion = $expansion;
