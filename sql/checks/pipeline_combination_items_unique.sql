-- pipeline_combination_items_unique: a combination names one tool per slot: no (benchmark,
-- expansion, query_id, combo_id, slot) appears twice in combination_items. The table has no key
-- (schema 065: its index did not fit in memory at library scale), so this check holds the line
-- the key held; the assembly and the imports never write a member twice.
-- Reads: combination_items. Returns the repeated members and how often each appears.
SELECT benchmark, expansion, query_id, combo_id, slot, count(*) AS times
FROM combination_items
GROUP BY ALL
HAVING count(*) > 1
ORDER BY benchmark, expansion, query_id, combo_id, slot;
