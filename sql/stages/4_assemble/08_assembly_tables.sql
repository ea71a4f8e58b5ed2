-- 08_assembly_tables: the assembly's staging tables for one group of queries (one transaction).
-- Reads: combinations, combination_items (their columns only). Creates: TEMP TABLEs assembly_round
-- + assembly_round_items (one write batch of the enumeration: 09 and 10 write it, the rules 11 and
-- 12 judge it, 13 and 14 cut it), assembled_combinations + assembled_items (the group's batches so
-- far, what the rules let through, which 13, 16, 17 and expansions/30 read, and expansions/31
-- stores) and assembled_rejected (query_id, n: the rules' rejections per query and batch, counted
-- by 15, which expansions/30 adds up), assembled_repeated (query_id, n: the combinations per
-- query and batch that repeat a kept tool set, marked by 22 and counted by 15, which
-- expansions/30 adds up),
-- assembled_reasons (the first rejections of each query with their reasons: 20 keeps them, 21
-- stores them). Parameters: none.
-- Why staging: the stored tables grow to millions of rows; a rule or count filtered by query id
-- over them rescans everything stored before at each round of each group, which made the
-- assembly quadratic in what it stores. The staging tables hold one group, so each statement
-- costs what that group stores. They copy the stored tables' columns (no keys: one enumeration
-- never repeats a combination).
-- Why a count for the rejections: a rule that rejects nearly everything has a query enumerate
-- most of its product to find the budget's pending ones; as rows those filled memory (schema
-- 066), as a count they cost one row per query and batch.
CREATE OR REPLACE TEMP TABLE assembly_round AS FROM combinations LIMIT 0;
CREATE OR REPLACE TEMP TABLE assembly_round_items AS FROM combination_items LIMIT 0;
CREATE OR REPLACE TEMP TABLE assembled_combinations AS FROM combinations LIMIT 0;
CREATE OR REPLACE TEMP TABLE assembled_items AS FROM combination_items LIMIT 0;
CREATE OR REPLACE TEMP TABLE assembled_rejected (query_id VARCHAR NOT NULL, n BIGINT NOT NULL);
CREATE OR REPLACE TEMP TABLE assembled_repeated (query_id VARCHAR NOT NULL, n BIGINT NOT NULL);
CREATE OR REPLACE TEMP TABLE assembled_reasons (query_id VARCHAR NOT NULL, rrf_rank INTEGER,
                                                 items VARCHAR[], reason VARCHAR);
