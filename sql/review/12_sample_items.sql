-- 12_sample_items: the items of a sample at either level, with everything its draw recorded
-- (the item's key, its stratum and position; at the verdict level also its part, category and
-- rank), in position order. For the statistics, the published labels and the sheet import's
-- check that a labelled item belongs to the sample; never shown to a reviewer (a verdict's part
-- and rank are the judge's and the retriever's; what a reviewer sees: 20 and 50).
-- Reads: the level's samples table ($samples: review_samples or review_verdict_samples, a name
-- from toolex.review.levels read by query_table, never SQL text). Creates: nothing.
-- Parameters: $samples, $sample_id, $query_id (one query's items; NULL = all).
SELECT *
FROM query_table($samples)
WHERE sample_id = $sample_id AND ($query_id IS NULL OR query_id = $query_id)
ORDER BY position
