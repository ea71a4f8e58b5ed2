-- 03_reuse_sources: verdicts a verify judge made fresh in this expansion on the (reference,
-- candidate) pairs still to verify: what `expand --reuse same-step` may carry over to another
-- sub-query of the same pair (toolex/pipeline/reuse.py decides where it may).
-- Reads: verdicts, subqueries, reuse_pairs (registered: reference, candidate). Creates: nothing.
-- Parameters: $benchmark, $expansion, $judge (the verify judge's spec: only its own verdicts,
-- made by a call, are reused; never a reused, screened, reference or offline one).
SELECT s.reference, v.item_id AS candidate, s.text AS subquery, v.query_id,
       v.slot, v.accepted, v.reason, v.confidence, v.call_id
FROM verdicts v
JOIN subqueries s ON s.benchmark = v.benchmark AND s.expansion = v.expansion
     AND s.query_id = v.query_id AND s.slot = v.slot
JOIN reuse_pairs p ON p.reference = s.reference AND p.candidate = v.item_id
WHERE v.benchmark = $benchmark AND v.expansion = $expansion AND v.judge = $judge
  AND v.call_id IS NOT NULL
ORDER BY v.query_id, v.slot;
