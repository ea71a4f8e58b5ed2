-- 23_replace_label: write one label, replacing the one its source holds for the same (benchmark,
-- query, reference, candidate); labelled now. toolex.review publishes a verdict-level sample's
-- final labels this way (source = the sample id), one at a time as reviewers settle them.
-- Reads: nothing. Creates: one row of labels.
-- Parameters: $benchmark, $query_id, $slot, $subquery, $reference, $candidate, $label,
-- $labeller, $note, $source, $stratum (JSON text).
INSERT OR REPLACE INTO labels
    (benchmark, query_id, slot, subquery, reference, candidate, label, labeller, note, source,
     stratum, labelled_at)
VALUES ($benchmark, $query_id, $slot, $subquery, $reference, $candidate, $label, $labeller,
        $note, $source, CAST($stratum AS JSON), current_timestamp)
