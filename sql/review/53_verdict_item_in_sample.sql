-- 53_verdict_item_in_sample: whether one (sub-query slot, candidate) belongs to a verdict-level
-- sample (a label for anything else would be counted nowhere, so imports refuse it).
-- Reads: review_verdict_samples. Creates: nothing.
-- Parameters: $sample_id, $benchmark, $expansion, $query_id, $slot, $item_id.
SELECT count(*) AS n
FROM review_verdict_samples
WHERE sample_id = $sample_id AND benchmark = $benchmark AND expansion = $expansion
  AND query_id = $query_id AND slot = $slot AND item_id = $item_id
