-- 26_stored_candidates: what the expansion already holds for the sub-queries an import covers:
-- candidate lists (swapped only with --replace) and verdicts on them (never swapped: the
-- verdicts judged the old lists).
-- Reads: candidates, verdicts, new_candidate_keys (registered: query_id, slot).
-- Creates: nothing (one row). Parameters: $benchmark, $expansion.
SELECT
    (SELECT count(DISTINCT (c.query_id, c.slot)) FROM candidates AS c
     JOIN new_candidate_keys AS k ON k.query_id = c.query_id AND k.slot = c.slot
     WHERE c.benchmark = $benchmark AND c.expansion = $expansion) AS lists,
    (SELECT min(c.query_id) FROM candidates AS c
     JOIN new_candidate_keys AS k ON k.query_id = c.query_id AND k.slot = c.slot
     WHERE c.benchmark = $benchmark AND c.expansion = $expansion) AS first_query,
    (SELECT count(*) FROM verdicts AS v
     JOIN new_candidate_keys AS k ON k.query_id = v.query_id AND k.slot = v.slot
     WHERE v.benchmark = $benchmark AND v.expansion = $expansion) AS verdicts;
