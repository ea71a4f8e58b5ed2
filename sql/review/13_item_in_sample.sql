-- 13_item_in_sample: whether one combination belongs to a sample (a label for anything else
-- would be counted nowhere, so imports refuse it).
-- Reads: review_samples. Creates: nothing.
-- Parameters: $sample_id, $benchmark, $expansion, $query_id, $combo_id.
SELECT count(*) AS n
FROM review_samples
WHERE sample_id = $sample_id AND benchmark = $benchmark AND expansion = $expansion
  AND query_id = $query_id AND combo_id = $combo_id
