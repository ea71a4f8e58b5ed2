-- 15_keep_round: count the judged batch's rejections per query, add the rest to its group and
-- empty the batch's tables.
-- Reads: assembly_round, assembly_round_items (08; judged by 11 and 12, cut by 13 and 14).
-- Creates: assembled_rejected, assembled_repeated, assembled_combinations, assembled_items rows
-- (08). Parameters: none.
-- A combination the rule rejected is never audited and never relevant: it is counted (expansions/30
-- stores the count, schema 066), never stored, so what a query holds follows its budget, not how
-- much of its product the rule threw away. So is a repeat of a kept tool set (22): counted
-- (expansions/30, schema 071), never stored nor audited. The rejected and repeated rows are
-- deleted before the rest is copied, so rows keep their order (the order the enumeration made
-- them, as expansions/31 stores them).
INSERT INTO assembled_rejected
SELECT query_id, count(*) FROM assembly_round WHERE status = 'rejected_platform' GROUP BY query_id;
INSERT INTO assembled_repeated
SELECT query_id, count(*) FROM assembly_round WHERE status = 'repeated' GROUP BY query_id;
DELETE FROM assembly_round_items i USING assembly_round r
WHERE r.query_id = i.query_id AND r.combo_id = i.combo_id
  AND r.status IN ('rejected_platform', 'repeated');
DELETE FROM assembly_round WHERE status IN ('rejected_platform', 'repeated');
INSERT INTO assembled_combinations FROM assembly_round;
INSERT INTO assembled_items FROM assembly_round_items;
DELETE FROM assembly_round;
DELETE FROM assembly_round_items;
