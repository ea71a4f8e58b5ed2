-- 81_trust_stage_judges: which judges actually wrote each stage's rows of one expansion.
-- Reads: subqueries, verdicts, combinations. Creates: nothing (one row per stage and judge).
-- Parameters: $benchmark, $expansion. Returns: stage, judge, n (rows it wrote), unscored (its
-- verdicts without a confidence; 0 for the other stages), accepted (its verdicts that said yes;
-- the rows themselves for the other stages).
-- The rows, not the settings, say who judged: a re-run with another judge only fills in missing
-- work, so one expansion may hold verdicts of two judges. Rows that no judge decided are left
-- out: the reference's own verdict ('reference'), the original combination, and combinations
-- the platform rule rejected or the audit cap cut. The fitted offline verifier records its score
-- as the confidence of every verdict; 'heuristic' verdicts without one were made by the earlier
-- offline verifier, which the shipped figures do not describe.
SELECT 'decompose' AS stage, judge, count(*) AS n, 0 AS unscored, count(*) AS accepted
FROM subqueries
WHERE benchmark = $benchmark AND expansion = $expansion AND judge IS NOT NULL
GROUP BY judge
UNION ALL
SELECT 'verify', judge, count(*), count(*) FILTER (WHERE confidence IS NULL),
       count(*) FILTER (WHERE accepted)
FROM verdicts
WHERE benchmark = $benchmark AND expansion = $expansion AND judge <> 'reference'
GROUP BY judge
UNION ALL
SELECT 'audit', judge, count(*), 0, count(*)
FROM combinations
WHERE benchmark = $benchmark AND expansion = $expansion AND judge IS NOT NULL
  AND combo_id <> 0 AND NOT is_original AND status IN ('valid', 'rejected_audit')
GROUP BY judge
ORDER BY stage, n DESC, judge
