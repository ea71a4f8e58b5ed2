-- 73_store_assembled: store a group's assembled combinations and their members.
-- Reads: assembled_combinations, assembled_items (71; every rule, cut and check applied).
-- Creates: combinations, combination_items rows. Parameters: none (the staging rows carry
-- benchmark and expansion).
-- ON CONFLICT as when 32 and 33 wrote the store directly: assembling twice never duplicates.
INSERT INTO combinations BY NAME FROM assembled_combinations ON CONFLICT DO NOTHING;
INSERT INTO combination_items BY NAME FROM assembled_items ON CONFLICT DO NOTHING;
