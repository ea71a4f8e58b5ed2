-- 51_verdict_save_label: write (or overwrite) one role's label of one sampled verdict.
-- Reads: nothing. Creates: one row of review_verdict_labels (replacing the role's previous one).
-- Parameters: $sample_id, $benchmark, $expansion, $query_id, $slot, $item_id, $role, $reviewer,
-- $label, $bucket, $note.
INSERT OR REPLACE INTO review_verdict_labels
    (sample_id, benchmark, expansion, query_id, slot, item_id, role, reviewer, label, bucket,
     note, labelled_at)
VALUES ($sample_id, $benchmark, $expansion, $query_id, $slot, $item_id, $role, $reviewer, $label,
        $bucket, $note, current_timestamp)
