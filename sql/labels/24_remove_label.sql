-- 24_remove_label: remove one label of a source (a verdict-level review item that has no final
-- label any more: a reviewer changed theirs and the new disagreement awaits adjudication).
-- Reads: nothing. Deletes: at most one row of labels.
-- Parameters: $source, $benchmark, $query_id, $reference, $candidate (the table's key).
DELETE FROM labels
WHERE source = $source AND benchmark = $benchmark AND query_id = $query_id
  AND reference = $reference AND candidate = $candidate
