-- 62_verdict_unpublish_label: remove a sampled verdict's label from `labels` when it has no
-- final label any more (a reviewer changed theirs and the new disagreement awaits adjudication).
-- Reads: nothing. Deletes: at most one row of labels.
-- Parameters: $source, $benchmark, $query_id, $reference, $candidate.
DELETE FROM labels
WHERE source = $source AND benchmark = $benchmark AND query_id = $query_id
  AND reference = $reference AND candidate = $candidate
