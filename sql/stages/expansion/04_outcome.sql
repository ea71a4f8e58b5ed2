-- 04_outcome: what an expansion holds, for the end of `toolex expand` and its degenerate-run
-- warnings (toolex.pipeline.outcome). Counts the store, not one run, so a re-run reports the
-- same outcome.
-- Reads: queries, qrels, subqueries, candidates, verdicts, combinations, stage_failures.
-- Creates: nothing (one row). Parameters: $benchmark, $expansion.
-- Returns: queries (with ground truth), decomposed (with sub-queries), subqueries,
--   with_candidates (sub-queries with a candidate list), refs_missed (of those, the reference
--   was not in its own list: stored with no score), candidates (non-reference),
--   accepted (non-reference candidates accepted), equivalents_per_subquery (accepted / sub-queries),
--   valid (every valid combination, the original included: the word means that in `expand`,
--   `stats`, `info` and the report alike), alternatives (the valid ones other than the original),
--   with_alternative (queries with one), failed_queries (queries with a failed task), top_text
--   and top_text_n (the most repeated sub-query text and how many sub-queries read it),
--   judged (non-reference candidates with a verdict: "none accepted" means something only once
--   verify has run), reference_tools and unnamed_references (distinct ground-truth items of the
--   sub-queries; of those, the items with no name of their own), undescribed_references (of the
--   unnamed, those whose rendering has no description line either: toolex.tooldoc.render).
WITH q AS (
    SELECT DISTINCT query_id FROM qrels WHERE benchmark = $benchmark
), s AS (
    SELECT * FROM subqueries WHERE benchmark = $benchmark AND expansion = $expansion
), c AS (
    SELECT c.*, c.item_id = s.reference AS is_reference
    FROM candidates AS c
    JOIN s ON s.query_id = c.query_id AND s.slot = c.slot
    WHERE c.benchmark = $benchmark AND c.expansion = $expansion
), v AS (
    SELECT v.* FROM verdicts AS v
    JOIN s ON s.query_id = v.query_id AND s.slot = v.slot
    WHERE v.benchmark = $benchmark AND v.expansion = $expansion AND v.item_id <> s.reference
), valid AS (
    SELECT query_id, combo_id <> 0 AND NOT is_original AS alternative FROM combinations
    WHERE benchmark = $benchmark AND expansion = $expansion AND status = 'valid'
), refs AS (
    SELECT DISTINCT i.item_id, nullif(trim(coalesce(i.name, '')), '') IS NULL AS unnamed,
        NOT regexp_matches(i.text, '(^|\n)description: ') AS undescribed
    FROM s JOIN items AS i ON i.benchmark = $benchmark AND i.item_id = s.reference
), texts AS (
    SELECT lower(trim(text)) AS text, count(*) AS n FROM s GROUP BY ALL
    ORDER BY n DESC, text LIMIT 1
)
SELECT
    (SELECT count(*) FROM q) AS queries,
    (SELECT count(DISTINCT query_id) FROM s) AS decomposed,
    (SELECT count(*) FROM s) AS subqueries,
    (SELECT count(DISTINCT (query_id, slot)) FROM c) AS with_candidates,
    (SELECT count(*) FROM c WHERE is_reference AND score IS NULL) AS refs_missed,
    (SELECT count(*) FROM c WHERE NOT is_reference) AS candidates,
    (SELECT count(*) FROM v WHERE accepted) AS accepted,
    (SELECT count(*) FROM v) AS judged,
    (SELECT count(*) FROM v WHERE accepted) / greatest((SELECT count(*) FROM s), 1)
        AS equivalents_per_subquery,
    (SELECT count(*) FROM valid) AS valid,
    (SELECT count(*) FROM valid WHERE alternative) AS alternatives,
    (SELECT count(DISTINCT query_id) FROM valid WHERE alternative) AS with_alternative,
    (SELECT count(DISTINCT q.query_id) FROM q
     JOIN stage_failures AS f
       ON f.benchmark = $benchmark AND f.expansion = $expansion
      AND (f.task_key = q.query_id OR starts_with(f.task_key, q.query_id || '/')))
        AS failed_queries,
    (SELECT text FROM texts) AS top_text,
    coalesce((SELECT n FROM texts), 0) AS top_text_n,
    (SELECT count(*) FROM refs) AS reference_tools,
    (SELECT count(*) FROM refs WHERE unnamed) AS unnamed_references,
    (SELECT count(*) FROM refs WHERE unnamed AND undescribed) AS undescribed_references
