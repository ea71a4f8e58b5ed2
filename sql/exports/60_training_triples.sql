-- 60_training_triples: contrastive training triples (anchor, positive, hard negative) whose
-- negatives are never equivalents of the query's tools (toolex.exports.triples).
-- Reads: queries, qrels, subqueries, verdicts, combinations, combination_items, labels,
-- candidates, run_results, subquery_results, items. Creates: nothing.
-- Parameters: $benchmark VARCHAR, $expansion VARCHAR, $run_id VARCHAR (NULL: the expansion's
-- candidate pool), $negatives INTEGER (per anchor), $level ('query' | 'subquery').
-- Anchors: each labelled query's text ('query'), or each sub-query of the expansion ('subquery');
-- positives: the query's ground-truth items (a multi-tool query gives one row per item), or the
-- sub-query's reference. Negatives come from the run's ranking of the query (at sub-query level:
-- of the sub-query, a sub-query-level run's lists before fusion), or from the
-- candidate pool (each item's best candidate rank over the query's sub-queries; at sub-query
-- level the sub-query's own list), best first, never a ground-truth item of the query nor an
-- equivalent of one:
--   * an equivalent of this query in any expansion of the benchmark: an accepted verdict or a
--     member of a valid combination (imported ones included: SkillRet's substitutable labels
--     are the valid combinations of the expansion `substitutable`, whichever is exported);
--   * an equivalent of one of its ground-truth items anywhere in the store, in either
--     direction: a verdict that accepted one for the other in another query or expansion, a
--     member of a valid combination in the other's slot, or a person's 'yes' label (labels).
--     The verifier judges "can the candidate stand in for the reference on this step?"; either
--     way round, the pair was judged to do one job, and a hard negative that does the job is
--     the one error this export exists to avoid.
-- With one-to-one labels those equivalents would be the hardest "negatives" of all, teaching a
-- retriever to push down tools that do the job.
-- excluded_equivalents: per anchor, how many of the first $negatives non-ground-truth items of
-- its ranking are equivalents (what one-to-one labels would have used as negatives).
WITH gt AS (
    SELECT query_id, slot, item_id FROM qrels WHERE benchmark = $benchmark
),
valid_member AS (
    SELECT ci.query_id, ci.slot, ci.item_id
    FROM combination_items AS ci
    JOIN combinations AS c USING (benchmark, expansion, query_id, combo_id)
    WHERE ci.benchmark = $benchmark AND c.status = 'valid'
),
equivalent_pair AS (  -- (reference, equivalent), verified anywhere in the benchmark
    SELECT s.reference, v.item_id
    FROM verdicts AS v
    JOIN subqueries AS s USING (benchmark, expansion, query_id, slot)
    WHERE v.benchmark = $benchmark AND v.accepted
    UNION
    SELECT g.item_id, m.item_id
    FROM valid_member AS m JOIN gt AS g ON g.query_id = m.query_id AND g.slot = m.slot
    UNION
    SELECT reference, candidate FROM labels WHERE benchmark = $benchmark AND label = 'yes'
),
equivalent AS (
    SELECT v.query_id, v.item_id FROM verdicts AS v
    WHERE v.benchmark = $benchmark AND v.accepted
    UNION
    SELECT query_id, item_id FROM valid_member
    UNION
    SELECT g.query_id, p.item_id FROM gt AS g JOIN equivalent_pair AS p ON p.reference = g.item_id
    UNION
    SELECT g.query_id, p.reference FROM gt AS g JOIN equivalent_pair AS p ON p.item_id = g.item_id
),
anchors AS (
    SELECT g.query_id, NULL::INTEGER AS slot, q.text AS anchor, g.item_id AS positive_id
    FROM gt AS g JOIN queries AS q ON q.benchmark = $benchmark AND q.query_id = g.query_id
    WHERE $level = 'query'
    UNION ALL
    SELECT s.query_id, s.slot, s.text, s.reference
    FROM subqueries AS s
    WHERE s.benchmark = $benchmark AND s.expansion = $expansion AND $level = 'subquery'
),
ranking AS (
    SELECT query_id, NULL::INTEGER AS slot, item_id, rank
    FROM run_results WHERE $run_id IS NOT NULL AND run_id = $run_id AND $level = 'query'
    UNION ALL
    SELECT query_id, slot, item_id, rank
    FROM subquery_results WHERE $run_id IS NOT NULL AND run_id = $run_id AND $level = 'subquery'
    UNION ALL
    SELECT query_id, CASE WHEN $level = 'subquery' THEN slot END, item_id, min(rank)
    FROM candidates
    WHERE $run_id IS NULL AND benchmark = $benchmark AND expansion = $expansion
    GROUP BY ALL
),
ranked AS (
    SELECT r.query_id, r.slot, r.item_id, r.rank,
           EXISTS (SELECT 1 FROM equivalent AS e
                   WHERE e.query_id = r.query_id AND e.item_id = r.item_id) AS is_equivalent,
           row_number() OVER (PARTITION BY r.query_id, r.slot ORDER BY r.rank, r.item_id)
               AS position
    FROM ranking AS r
    WHERE NOT EXISTS (SELECT 1 FROM gt AS g WHERE g.query_id = r.query_id
                      AND g.item_id = r.item_id)
),
negatives AS (
    SELECT query_id, slot, item_id, rank,
           row_number() OVER (PARTITION BY query_id, slot ORDER BY rank, item_id) AS n
    FROM ranked WHERE NOT is_equivalent
),
poisoned AS (
    SELECT query_id, slot, count(*) FILTER (WHERE is_equivalent) AS excluded_equivalents
    FROM ranked WHERE position <= $negatives GROUP BY query_id, slot
)
SELECT a.query_id, a.slot, a.anchor, a.positive_id, p.text AS positive,
       n.item_id AS negative_id, i.text AS negative, n.rank AS negative_rank,
       coalesce(x.excluded_equivalents, 0) AS excluded_equivalents
FROM anchors AS a
JOIN negatives AS n ON n.query_id = a.query_id AND n.slot IS NOT DISTINCT FROM a.slot
     AND n.n <= $negatives
JOIN items AS p ON p.benchmark = $benchmark AND p.item_id = a.positive_id
JOIN items AS i ON i.benchmark = $benchmark AND i.item_id = n.item_id
LEFT JOIN poisoned AS x ON x.query_id = a.query_id AND x.slot IS NOT DISTINCT FROM a.slot
ORDER BY a.query_id, a.slot NULLS FIRST, a.positive_id, n.n
