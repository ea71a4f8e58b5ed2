-- 41_verdict_subqueries: the sub-queries whose candidates were retrieved, to search again past
-- the candidate depth (the unjudged part of a verdict-level sample).
-- Reads: subqueries, candidates. Creates: nothing. Parameters: $benchmark, $expansion.
SELECT s.query_id, s.slot, s.text
FROM subqueries s
WHERE s.benchmark = $benchmark AND s.expansion = $expansion
  AND EXISTS (SELECT 1 FROM candidates c
              WHERE c.benchmark = s.benchmark AND c.expansion = s.expansion
                AND c.query_id = s.query_id AND c.slot = s.slot)
ORDER BY s.query_id, s.slot
