-- 31_store_assembled: store a group's assembled combinations and their members
-- (toolex.expansions.store_assembled).
-- Reads: assembled_combinations, assembled_items (the assembly's staging tables,
-- stages/4_assemble/08; every rule, cut and check applied). Creates: combinations,
-- combination_items rows. Parameters: none (the staging rows carry benchmark and expansion).
-- No ON CONFLICT: a query with combinations is never ready to assemble (stages/4_assemble/01),
-- so nothing here repeats; were it to, combinations' key refuses the group loudly rather than
-- storing a second set of members (combination_items has no key, schema 065).
INSERT INTO combinations BY NAME FROM assembled_combinations;
INSERT INTO combination_items BY NAME FROM assembled_items;
