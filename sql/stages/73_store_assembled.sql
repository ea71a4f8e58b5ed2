-- 73_store_assembled: store a group's assembled combinations and their members.
-- Reads: assembled_combinations, assembled_items (71; every rule, cut and check applied).
-- Creates: combinations, combination_items rows. Parameters: none (the staging rows carry
-- benchmark and expansion).
-- No ON CONFLICT: a query with combinations is never ready to assemble (30), so nothing here
-- repeats; were it to, combinations' key refuses the group loudly rather than storing a second
-- set of members (combination_items has no key, schema 065).
INSERT INTO combinations BY NAME FROM assembled_combinations;
INSERT INTO combination_items BY NAME FROM assembled_items;
