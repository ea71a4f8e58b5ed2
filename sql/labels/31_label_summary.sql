-- 31_label_summary: the label sets in the store, per source and benchmark, with yes/no counts.
-- Reads: labels. Creates: nothing. Parameters: none.
SELECT source, benchmark, count(*) AS labels,
       count(*) FILTER (WHERE label = 'yes') AS yes,
       count(*) FILTER (WHERE label = 'no') AS no,
       count(DISTINCT query_id) AS queries,
       string_agg(DISTINCT labeller, ', ' ORDER BY labeller) AS labellers,
       strftime(max(labelled_at), '%Y-%m-%d %H:%M') AS labelled_at
FROM labels
GROUP BY source, benchmark
ORDER BY source, benchmark;
