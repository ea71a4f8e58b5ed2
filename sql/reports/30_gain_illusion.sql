-- 30_gain_illusion: how much of a fine-tuning gain survives when equivalents count.
-- Reads: report_summary (toolex.metrics.summary rows), report_pairs (base, finetuned), both
-- registered by the report builder. Creates: nothing. Parameters: none.
-- gap_old = finetuned.old - base.old; gap_new = finetuned.new - base.new;
-- vanished_share = (gap_old - gap_new) / gap_old (NULL when there is no old gap).
-- metric 'mean' averages the three metrics; category 'category mean' averages the categories
-- (not 'all', which is the macro average over queries).
WITH gaps AS (
    SELECT
        p.base,
        p.finetuned,
        b.category,
        b.metric,
        b.k,
        f.old - b.old AS gap_old,
        f.new - b.new AS gap_new
    FROM report_pairs AS p
    JOIN report_summary AS b ON b.run_id = p.base
    JOIN report_summary AS f
      ON f.run_id = p.finetuned AND f.category = b.category AND f.metric = b.metric AND f.k = b.k
),
with_mean AS (
    SELECT * FROM gaps
    UNION ALL
    SELECT base, finetuned, category, 'mean' AS metric, k, avg(gap_old), avg(gap_new)
    FROM gaps
    GROUP BY base, finetuned, category, k
),
with_category_mean AS (
    SELECT * FROM with_mean
    UNION ALL
    SELECT base, finetuned, 'category mean' AS category, metric, k, avg(gap_old), avg(gap_new)
    FROM with_mean
    WHERE category <> 'all'
    GROUP BY base, finetuned, metric, k
)
SELECT
    base,
    finetuned,
    category,
    metric,
    k,
    gap_old,
    gap_new,
    gap_old - gap_new AS gap_vanished,
    CASE WHEN abs(gap_old) > 1e-12 THEN (gap_old - gap_new) / gap_old END AS vanished_share
FROM with_category_mean
ORDER BY base, finetuned, k,
    CASE category WHEN 'all' THEN 1 WHEN 'category mean' THEN 2 ELSE 0 END, category,
    CASE metric WHEN 'ndcg' THEN 0 WHEN 'recall' THEN 1 WHEN 'comp' THEN 2 ELSE 3 END;
