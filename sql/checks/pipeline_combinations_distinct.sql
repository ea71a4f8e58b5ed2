-- pipeline_combinations_distinct: a query's combinations are distinct tool sets: no two stored
-- combinations of one query and expansion (the original included) hold the same items at the
-- same grades, the grade of the label of the slot each fills, as scoring reads them
-- (sql/metrics/020). The assembly keeps the best-ranked of each tool set
-- (sql/stages/4_assemble/22) and the imports the first; an expansion assembled before schema 071
-- may hold repeats: `toolex expand --replace` assembles it again.
-- Reads: combinations, combination_items, qrels. Returns each repeated tool set with its
-- combinations. Rows of the rule's rejections or of the cut that an older toolex stored are not
-- combinations a query holds, and are left out.
WITH grade AS (
    SELECT benchmark, query_id, slot, max(relevance) AS grade FROM qrels GROUP BY ALL
),
members AS (
    SELECT ci.benchmark, ci.expansion, ci.query_id, ci.combo_id, ci.item_id,
           max(coalesce(g.grade, 1)) AS grade
    FROM combination_items AS ci
    JOIN combinations AS c USING (benchmark, expansion, query_id, combo_id)
    LEFT JOIN grade AS g ON g.benchmark = ci.benchmark AND g.query_id = ci.query_id
         AND g.slot = ci.slot
    WHERE c.status NOT IN ('rejected_platform', 'cut')
    GROUP BY ALL
),
sets AS (
    SELECT benchmark, expansion, query_id, combo_id,
           list_sort(list(item_id || chr(9) || grade)) AS tools
    FROM members
    GROUP BY ALL
)
SELECT benchmark, expansion, query_id, list_sort(list(combo_id)) AS combo_ids,
       any_value(tools) AS tools
FROM sets
GROUP BY benchmark, expansion, query_id, tools
HAVING count(*) > 1
ORDER BY benchmark, expansion, query_id, combo_ids;
