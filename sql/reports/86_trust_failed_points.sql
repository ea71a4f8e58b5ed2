-- 86_trust_failed_points: why an offline verifier rejected the candidates of one expansion, by
-- the point of its verdict reasons ("no: <point>: ..."; toolex.judges.checks.POINTS), a score
-- under the cut counted apart ("no: operation: the two documents do not show one act ...").
-- Reads: verdicts. Creates: nothing. Parameters: $benchmark, $expansion, $judge.
-- Returns: point, n (rejected verdicts whose reason names it), most first.
-- The trust lines read it when the verifier accepted nothing, to say the likely cause.
SELECT CASE
           WHEN starts_with(reason, 'no: operation: the two documents do not show')
               THEN 'unlike documents'
           ELSE trim(split_part(reason, ':', 2))
       END AS point,
       count(*) AS n
FROM verdicts
WHERE benchmark = $benchmark AND expansion = $expansion AND judge = $judge
  AND NOT accepted AND starts_with(reason, 'no: ')
GROUP BY point
ORDER BY n DESC, point
