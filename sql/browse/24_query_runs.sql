-- 24_query_runs: per query-level run, where the ground-truth tools and their accepted
-- equivalents ranked for this query, and Recall@10 old (original combination) and new (max over
-- the valid combinations, the original included). Equivalents are listed best rank first (ties
-- by id; each with its name), so the same query always reads the same; runs in natural order
-- (natural_key).
-- Reads: runs, run_results, qrels, combinations, combination_items, items. Creates: nothing.
-- Parameters: $benchmark, $expansion, $query_id.
WITH members AS (
    SELECT 0 AS combo_id, slot, item_id FROM qrels
    WHERE benchmark = $benchmark AND query_id = $query_id
    UNION ALL
    SELECT ci.combo_id, ci.slot, ci.item_id
    FROM combination_items ci
    JOIN combinations c USING (benchmark, expansion, query_id, combo_id)
    WHERE ci.benchmark = $benchmark AND ci.expansion = $expansion AND ci.query_id = $query_id
      AND c.status = 'valid' AND NOT c.is_original
),
runs_q AS (SELECT run_id FROM runs WHERE benchmark = $benchmark AND level = 'query'),
ranked AS (
    SELECT r.run_id, m.combo_id, m.slot, m.item_id, rr.rank
    FROM runs_q r CROSS JOIN members m
    LEFT JOIN run_results rr ON rr.run_id = r.run_id AND rr.query_id = $query_id
                            AND rr.item_id = m.item_id
),
per_combo AS (
    SELECT run_id, combo_id, count(*) FILTER (WHERE rank <= 10) / count(*) AS r10
    FROM ranked GROUP BY run_id, combo_id
)
SELECT r.run_id,
       (SELECT max(r10) FROM per_combo p WHERE p.run_id = r.run_id AND p.combo_id = 0) AS r10_old,
       (SELECT max(r10) FROM per_combo p WHERE p.run_id = r.run_id) AS r10_new,
       (SELECT string_agg(coalesce(CAST(rank AS VARCHAR), '-'), ' ' ORDER BY slot)
        FROM ranked k WHERE k.run_id = r.run_id AND k.combo_id = 0) AS gt_ranks,
       (SELECT list({'item_id': e.item_id, 'name': i.name, 'rank': e.rank}
                    ORDER BY e.rank, e.item_id)
        FROM (SELECT DISTINCT item_id, rank FROM ranked k
              WHERE k.run_id = r.run_id AND k.combo_id <> 0 AND rank IS NOT NULL
                AND item_id NOT IN (SELECT item_id FROM members WHERE combo_id = 0)) e
        LEFT JOIN items i ON i.benchmark = $benchmark AND i.item_id = e.item_id)
           AS equivalents
FROM runs_q r
ORDER BY natural_key(r.run_id), r.run_id
