-- 82_trust_evaluations: what `toolex judges eval` measured for the given judges on a benchmark.
-- Reads: judge_evaluations. Creates: nothing. Parameters: $benchmark VARCHAR, $judges VARCHAR[].
-- Returns every evaluation row of those judges on $benchmark's labels or on a whole label
-- source (benchmark '*'), best first: the benchmark's own labels before '*', then the newest.
-- toolex.reports.trust keeps the first row per (judge, stage) that is out of sample.
SELECT judge, stage, source, benchmark, n, tp, fp, fn, tn,
       precision, precision_lo, precision_hi, recall, recall_lo, recall_hi, kappa, evaluated_at
FROM judge_evaluations
WHERE list_contains($judges::VARCHAR[], judge) AND benchmark IN ($benchmark, '*')
ORDER BY judge, stage, benchmark = '*', evaluated_at DESC, source
