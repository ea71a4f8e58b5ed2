-- 61_verdict_publish_label: write one sampled verdict's final label to `labels`, the table
-- `toolex judges eval` reads (source = the sample id; a newer final label replaces it).
-- Reads: nothing. Creates: one row of labels.
-- Parameters: $benchmark, $query_id, $slot, $subquery, $reference, $candidate, $label,
-- $labeller, $note, $source, $stratum (JSON text).
INSERT OR REPLACE INTO labels
    (benchmark, query_id, slot, subquery, reference, candidate, label, labeller, note, source,
     stratum, labelled_at)
VALUES ($benchmark, $query_id, $slot, $subquery, $reference, $candidate, $label, $labeller,
        $note, $source, CAST($stratum AS JSON), current_timestamp)
