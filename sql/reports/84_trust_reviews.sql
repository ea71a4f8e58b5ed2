-- 84_trust_reviews: the combination-level review samples of one expansion, newest first.
-- Reads: review_samples, review_labels. Creates: nothing (one row per sample).
-- Parameters: $benchmark, $expansion. Returns: sample_id, n_items, n_labels, last_labelled.
-- "Newest" is the sample whose latest label is the most recent (samples have no date of their
-- own); toolex.reports.trust takes the first one whose every item has a final label
-- (toolex.review.stats), so a review still under way never stands in for a finished one.
SELECT s.sample_id,
       count(DISTINCT (s.query_id, s.combo_id)) AS n_items,
       count(l.role) AS n_labels,
       max(l.labelled_at) AS last_labelled
FROM review_samples AS s
LEFT JOIN review_labels AS l
  ON l.sample_id = s.sample_id AND l.benchmark = s.benchmark AND l.expansion = s.expansion
 AND l.query_id = s.query_id AND l.combo_id = s.combo_id
WHERE s.benchmark = $benchmark AND s.expansion = $expansion
GROUP BY s.sample_id
ORDER BY last_labelled DESC NULLS LAST, s.sample_id
