-- 83_trust_label_overlap: an expansion's verify judges scored on the verdict labels that
-- happen to cover their verdicts (the confusion counts; intervals are added in Python).
-- Reads: verdicts, subqueries, labels. Creates: nothing (one row per verify judge).
-- Parameters: $benchmark, $expansion, $fitted_on (the label sources the offline verifier's
-- thresholds were chosen on, a list: in-sample for the verdicts it made, which carry a confidence, so skipped for them;
-- the earlier offline verifier's verdicts, without one, never saw those labels).
-- Returns: judge, n, tp, fp, fn, tn, sources (the label sources used, comma-separated).
-- A verdict meets a label with the same query, the slot's reference (subqueries.reference)
-- and the same candidate, and the label's slot when it names one. Labels are keyed by items,
-- so they outlive re-expansion; where sources disagree on a triple the newest label counts.
-- The reference's own verdict ('reference') is never scored.
WITH scored AS (
    SELECT v.judge, v.query_id, v.slot, v.item_id, v.accepted, l.label = 'yes' AS yes, l.source
    FROM verdicts AS v
    JOIN subqueries AS s
      ON s.benchmark = v.benchmark AND s.expansion = v.expansion
     AND s.query_id = v.query_id AND s.slot = v.slot
    JOIN labels AS l
      ON l.benchmark = v.benchmark AND l.query_id = v.query_id
     AND l.reference = s.reference AND l.candidate = v.item_id
     AND (l.slot IS NULL OR l.slot = v.slot)
    WHERE v.benchmark = $benchmark AND v.expansion = $expansion
      AND v.judge <> 'reference' AND v.item_id <> s.reference
      AND NOT (starts_with(v.judge, 'heuristic') AND v.confidence IS NOT NULL
               AND list_contains($fitted_on, l.source))
    QUALIFY row_number() OVER (
        PARTITION BY v.judge, v.query_id, v.slot, v.item_id
        ORDER BY l.labelled_at DESC, l.source
    ) = 1
)
SELECT judge,
       count(*) AS n,
       count(*) FILTER (WHERE accepted AND yes) AS tp,
       count(*) FILTER (WHERE accepted AND NOT yes) AS fp,
       count(*) FILTER (WHERE NOT accepted AND yes) AS fn,
       count(*) FILTER (WHERE NOT accepted AND NOT yes) AS tn,
       string_agg(DISTINCT source, ', ' ORDER BY source) AS sources
FROM scored
GROUP BY judge
ORDER BY judge
