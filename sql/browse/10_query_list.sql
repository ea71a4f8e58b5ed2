-- 10_query_list: one page of the query list, filtered and sorted, with the filtered total.
-- Reads: queries, qrels, combinations, combination_items, run_results. Creates: nothing.
-- Parameters: $benchmark, $expansion; filters, NULL = any: $search (case-insensitive substring
-- of the query id or text), $task, $category, $n_gt (exact number of ground-truth tools),
-- $min_valid (at least this many valid combinations, the original included);
-- $score_run (run whose Recall@10 old/new is shown), $beats (true: keep queries where
-- $score_run's new Recall@10, the max over valid combinations, beats the old one, the original
-- combination's); $equiv_run (keep queries with a slot whose ground-truth tool is outside that
-- run's top 10 while an accepted equivalent for that slot, member of a valid combination, is
-- inside); $sort in query_id|task|category|n_gt|n_valid|text|r_old|r_new|gain (checked by the
-- caller against a closed set, then bound, never formatted in), $descending, $limit, $offset.
-- Ids and texts sort naturally (natural_key, 00_natural_key.sql: query_2 before query_10, G2
-- before G10); the other columns tie on the ids.
WITH gt AS (
    SELECT query_id, count(*) AS n_gt FROM qrels WHERE benchmark = $benchmark GROUP BY query_id
),
extra AS (
    SELECT query_id, count(*) AS n_extra
    FROM combinations
    WHERE benchmark = $benchmark AND expansion = $expansion AND status = 'valid'
      AND NOT is_original
    GROUP BY query_id
),
members AS (  -- every valid combination: the original qrels as combo 0, plus the expansion's
    SELECT query_id, 0 AS combo_id, slot, item_id FROM qrels WHERE benchmark = $benchmark
    UNION ALL
    SELECT ci.query_id, ci.combo_id, ci.slot, ci.item_id
    FROM combination_items ci
    JOIN combinations c USING (benchmark, expansion, query_id, combo_id)
    WHERE ci.benchmark = $benchmark AND ci.expansion = $expansion
      AND c.status = 'valid' AND NOT c.is_original
),
top_s AS (SELECT query_id, item_id FROM run_results WHERE run_id = $score_run AND rank <= 10),
recall AS (
    SELECT m.query_id, m.combo_id, count(t.item_id) / count(*) AS r
    FROM members m
    LEFT JOIN top_s t ON t.query_id = m.query_id AND t.item_id = m.item_id
    WHERE $score_run IS NOT NULL
    GROUP BY m.query_id, m.combo_id
),
scores AS (
    SELECT query_id, max(r) FILTER (WHERE combo_id = 0) AS r_old, max(r) AS r_new
    FROM recall GROUP BY query_id
),
top_e AS (SELECT query_id, item_id FROM run_results WHERE run_id = $equiv_run AND rank <= 10),
equiv_hit AS (
    SELECT DISTINCT g.query_id
    FROM qrels g
    JOIN members m ON m.query_id = g.query_id AND m.slot = g.slot AND m.combo_id <> 0
                  AND m.item_id <> g.item_id
    JOIN top_e te ON te.query_id = m.query_id AND te.item_id = m.item_id
    WHERE g.benchmark = $benchmark
      AND NOT EXISTS (
          SELECT 1 FROM top_e x WHERE x.query_id = g.query_id AND x.item_id = g.item_id)
),
base AS (
    SELECT q.query_id, q.task, q.category, coalesce(gt.n_gt, 0) AS n_gt,
           1 + coalesce(extra.n_extra, 0) AS n_valid,
           s.r_old, s.r_new, s.r_new - s.r_old AS gain, q.text
    FROM queries q
    LEFT JOIN gt USING (query_id)
    LEFT JOIN extra USING (query_id)
    LEFT JOIN scores s USING (query_id)
    WHERE q.benchmark = $benchmark
      AND ($search IS NULL
           OR contains(lower(q.query_id), lower($search))
           OR contains(lower(q.text), lower($search)))
      AND ($task IS NULL OR q.task = $task)
      AND ($category IS NULL OR q.category = $category)
)
SELECT *, count(*) OVER () AS total
FROM base
WHERE ($n_gt IS NULL OR n_gt = $n_gt)
  AND ($min_valid IS NULL OR n_valid >= $min_valid)
  AND (NOT $beats OR r_new > r_old)
  AND ($equiv_run IS NULL OR query_id IN (SELECT query_id FROM equiv_hit))
ORDER BY
    CASE WHEN NOT $descending THEN
        CASE $sort WHEN 'n_gt' THEN n_gt WHEN 'n_valid' THEN n_valid WHEN 'r_old' THEN r_old
                   WHEN 'r_new' THEN r_new WHEN 'gain' THEN gain END
    END ASC NULLS LAST,
    CASE WHEN $descending THEN
        CASE $sort WHEN 'n_gt' THEN n_gt WHEN 'n_valid' THEN n_valid WHEN 'r_old' THEN r_old
                   WHEN 'r_new' THEN r_new WHEN 'gain' THEN gain END
    END DESC NULLS LAST,
    CASE WHEN NOT $descending THEN natural_key(
        CASE $sort WHEN 'task' THEN task WHEN 'category' THEN category WHEN 'text' THEN text END)
    END ASC,
    CASE WHEN $descending THEN natural_key(
        CASE $sort WHEN 'task' THEN task WHEN 'category' THEN category WHEN 'text' THEN text END)
    END DESC,
    CASE WHEN $descending AND $sort = 'query_id' THEN natural_key(query_id) END DESC,
    natural_key(query_id) ASC,
    query_id ASC
LIMIT $limit OFFSET $offset
