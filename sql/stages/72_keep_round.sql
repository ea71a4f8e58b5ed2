-- 72_keep_round: add the judged round to its group and empty the round's tables.
-- Reads: assembly_round, assembly_round_items (71). Creates: assembled_combinations,
-- assembled_items rows (71). Parameters: none.
-- Rows keep their order (the order the enumeration made them, as 73 stores them).
INSERT INTO assembled_combinations FROM assembly_round;
INSERT INTO assembled_items FROM assembly_round_items;
DELETE FROM assembly_round;
DELETE FROM assembly_round_items;
