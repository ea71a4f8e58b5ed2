-- 60_save_evaluation: record what `toolex judges eval` measured; a re-evaluation of the same
-- (judge, stage, source, benchmark) replaces the earlier row.
-- Reads: nothing. Creates: a judge_evaluations row.
-- Parameters: $judge, $stage, $source, $benchmark ('*' = all of the source), $n, $tp, $fp, $fn,
-- $tn, $precision, $precision_lo, $precision_hi, $recall, $recall_lo, $recall_hi, $kappa.
INSERT OR REPLACE INTO judge_evaluations
    (judge, stage, source, benchmark, n, tp, fp, fn, tn, precision, precision_lo, precision_hi,
     recall, recall_lo, recall_hi, kappa, evaluated_at)
VALUES ($judge, $stage, $source, $benchmark, $n, $tp, $fp, $fn, $tn, $precision, $precision_lo,
        $precision_hi, $recall, $recall_lo, $recall_hi, $kappa, current_timestamp);
