-- 03_count_unretrieved: references the retriever missed (stored at rank K+1 with no score).
-- Reads: candidates. Creates: nothing. Parameters: $benchmark, $expansion, $query_ids (VARCHAR[]).
SELECT count(*) AS n FROM candidates
WHERE benchmark = $benchmark AND expansion = $expansion AND score IS NULL
  AND list_contains($query_ids, query_id);
