-- 42_verdict_population: every (sub-query, reference, candidate) triple a verdict-level sample
-- may draw, with its part, stratum and its distance to the judge's decision boundary (for the
-- uncertainty order): |confidence - boundary|, where a judge's boundary is the lowest confidence
-- among the verdicts it accepted (a judge accepts at or above its operating threshold: 0.5 for
-- one that answers by P(yes), higher for a precision-first one), 0.5 if it accepted none.
-- Parts: 'accepted' / 'rejected' = the judge's verdict on a stored candidate; 'unjudged' = a
-- stored candidate without a verdict, or an item the candidate retriever ranks for the sub-query
-- but that was never stored (the registered review_beyond: ranks past the candidate depth).
-- The reference itself is never part of the population (it passes by construction).
-- Rank bands: 1-3, 4-10, 11-20, 21+ (past the default depth of 20), 'unranked' (a verdict with
-- no candidate row, e.g. imported). Stratum = part/category/rank_band, category = the query's.
-- Reads: subqueries, queries, candidates, verdicts, review_beyond (query_id, slot, item_id,
-- rank; registered). Creates: nothing. Parameters: $benchmark, $expansion.
WITH subs AS (
    SELECT s.query_id, s.slot, s.text AS subquery, s.reference,
           coalesce(q.category, '?') AS category
    FROM subqueries s
    JOIN queries q ON q.benchmark = s.benchmark AND q.query_id = s.query_id
    WHERE s.benchmark = $benchmark AND s.expansion = $expansion
),
cands AS (
    SELECT query_id, slot, item_id, rank FROM candidates
    WHERE benchmark = $benchmark AND expansion = $expansion
),
judged AS (
    SELECT query_id, slot, item_id, accepted, confidence, judge FROM verdicts
    WHERE benchmark = $benchmark AND expansion = $expansion
),
boundaries AS (
    SELECT judge, coalesce(min(confidence) FILTER (WHERE accepted), 0.5) AS boundary
    FROM judged
    GROUP BY judge
),
stored AS (
    SELECT coalesce(c.query_id, v.query_id) AS query_id, coalesce(c.slot, v.slot) AS slot,
           coalesce(c.item_id, v.item_id) AS item_id, c.rank,
           CASE WHEN v.item_id IS NULL THEN 'unjudged'
                WHEN v.accepted THEN 'accepted' ELSE 'rejected' END AS part,
           abs(v.confidence - b.boundary) AS uncertainty
    FROM cands c
    FULL OUTER JOIN judged v USING (query_id, slot, item_id)
    LEFT JOIN boundaries b ON b.judge = v.judge
),
beyond AS (
    SELECT b.query_id, CAST(b.slot AS INTEGER) AS slot, b.item_id, CAST(b.rank AS INTEGER) AS rank,
           'unjudged' AS part, CAST(NULL AS DOUBLE) AS uncertainty
    FROM review_beyond b
    WHERE NOT EXISTS (SELECT 1 FROM stored t
                      WHERE t.query_id = b.query_id AND t.slot = b.slot AND t.item_id = b.item_id)
),
pop AS (
    SELECT p.*, s.reference, s.subquery, s.category,
           CASE WHEN p.rank IS NULL THEN 'unranked'
                WHEN p.rank <= 3 THEN '1-3'
                WHEN p.rank <= 10 THEN '4-10'
                WHEN p.rank <= 20 THEN '11-20'
                ELSE '21+' END AS rank_band
    FROM (SELECT * FROM stored UNION ALL SELECT * FROM beyond) p
    JOIN subs s USING (query_id, slot)
    WHERE p.item_id <> s.reference
)
SELECT query_id, slot, item_id, reference, subquery, part, category, rank, rank_band,
       part || '/' || category || '/' || rank_band AS stratum, uncertainty
FROM pop
ORDER BY query_id, slot, item_id
