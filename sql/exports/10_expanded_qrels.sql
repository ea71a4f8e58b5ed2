-- 10_expanded_qrels: the expanded annotation, one row per query x combination x slot x item.
-- Reads: qrels, combinations, combination_items. Creates: nothing.
-- Parameters: $benchmark VARCHAR, $expansion VARCHAR, $valid_only BOOLEAN,
-- $include_unaudited BOOLEAN.
-- combo_id 0 is the original ground truth read from qrels (always present, status 'valid' even
-- for a query the expansion never reached), with its graded relevance; an expanded member
-- inherits the relevance of the ground-truth item of its slot, 1 when the slot has no label —
-- the same rule as toolex.metrics (sql/metrics/020), so scores computed from this file match.
-- status / audit_reason / audit_judge are the combination's fate in stage 3 (valid,
-- rejected_audit, rejected_platform, cut, pending); rrf and rrf_rank its RRF score and rank.
-- Only stored combinations have rows: what the assembly counts instead (cut beyond the audit
-- budget, and since schema 066 the dependency rule's rejections) has relevance 0 and no
-- members to list; 'rejected_platform' rows come from stores assembled before 066 or imports.
-- relevance counts only where the combination counts: a rejected one has 0, and so has an
-- unaudited one (cut by the audit cap or the safety limit, or still pending) unless
-- $include_unaudited, which gives it its inherited relevance, keeps it under $valid_only and
-- marks it (unaudited = true): an unaudited combination must never pass for a valid one.
WITH slot_relevance AS (
    SELECT query_id, slot, max(relevance) AS relevance
    FROM qrels
    WHERE benchmark = $benchmark
    GROUP BY query_id, slot
),
members AS (
    SELECT query_id, 0 AS combo_id, slot, item_id, relevance
    FROM qrels
    WHERE benchmark = $benchmark
    UNION ALL
    SELECT ci.query_id, ci.combo_id, ci.slot, ci.item_id, coalesce(g.relevance, 1) AS relevance
    FROM combination_items AS ci
    JOIN combinations AS c USING (benchmark, expansion, query_id, combo_id)
    LEFT JOIN slot_relevance AS g ON g.query_id = ci.query_id AND g.slot = ci.slot
    WHERE ci.benchmark = $benchmark AND ci.expansion = $expansion
      AND ci.combo_id <> 0 AND NOT c.is_original
)
SELECT
    $benchmark AS benchmark,
    $expansion AS expansion,
    m.query_id,
    m.combo_id,
    m.slot,
    m.item_id,
    CASE WHEN m.combo_id = 0 OR coalesce(c.status, 'valid') = 'valid'
              OR ($include_unaudited AND c.status IN ('cut', 'pending'))
         THEN m.relevance ELSE 0 END AS relevance,
    m.combo_id = 0 AS is_original,
    coalesce(c.status, 'valid') AS status,
    coalesce(c.status IN ('cut', 'pending'), false) AS unaudited,
    c.rrf,
    c.rrf_rank,
    c.reason AS audit_reason,
    c.judge AS audit_judge
FROM members AS m
LEFT JOIN combinations AS c
  ON c.benchmark = $benchmark AND c.expansion = $expansion
 AND c.query_id = m.query_id AND c.combo_id = m.combo_id
WHERE NOT $valid_only OR coalesce(c.status, 'valid') = 'valid' OR m.combo_id = 0
   OR ($include_unaudited AND c.status IN ('cut', 'pending'))
ORDER BY m.query_id, m.combo_id, m.slot;
