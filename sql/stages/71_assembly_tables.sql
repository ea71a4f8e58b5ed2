-- 71_assembly_tables: the assembly's staging tables for one group of queries (one transaction).
-- Reads: combinations, combination_items (their columns only). Creates: TEMP TABLEs
-- assembly_round + assembly_round_items (the combinations of the current enumeration round, 32
-- and 33 write them, the rules 34 and 60 judge them) and assembled_combinations +
-- assembled_items (the group's rounds so far, which 69, 35, 68, 61 and 43 read, and 73 stores).
-- Parameters: none.
-- Why staging: the stored tables grow to millions of rows; a rule or count filtered by query id
-- over them rescans everything stored before at each round of each group, which made the
-- assembly quadratic in what it stores. The staging tables hold one group, so each statement
-- costs what that group stores. They copy the stored tables' columns (no keys: one enumeration
-- never repeats a combination).
CREATE OR REPLACE TEMP TABLE assembly_round AS FROM combinations LIMIT 0;
CREATE OR REPLACE TEMP TABLE assembly_round_items AS FROM combination_items LIMIT 0;
CREATE OR REPLACE TEMP TABLE assembled_combinations AS FROM combinations LIMIT 0;
CREATE OR REPLACE TEMP TABLE assembled_items AS FROM combination_items LIMIT 0;
