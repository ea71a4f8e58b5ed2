-- 11_flat_qrels: the expanded annotation flattened to one row per (query, item).
-- Reads: export_members (the rows of 10_expanded_qrels with $valid_only, registered by
-- toolex.exports.qrels). Creates: nothing. Parameters: none.
-- An item is relevant when it belongs to any valid combination; relevance is its highest in
-- any of them. combo_ids lists those combinations, so the per-combination form can be rebuilt
-- and the flat form is never mistaken for "any item counts alone". Unaudited combinations (cut,
-- pending) count only when the export includes them (10's $include_unaudited); unaudited_only
-- then marks an item that no audited combination holds.
SELECT
    max(benchmark) AS benchmark,
    max(expansion) AS expansion,
    query_id,
    item_id,
    max(relevance) AS relevance,
    bool_or(is_original) AS in_original,
    count(DISTINCT combo_id) AS n_combinations,
    list(DISTINCT combo_id ORDER BY combo_id) AS combo_ids,
    list(DISTINCT slot ORDER BY slot) AS slots,
    min(rrf_rank) AS best_rrf_rank,
    bool_and(unaudited) AS unaudited_only
FROM export_members
WHERE status = 'valid' OR (unaudited AND relevance > 0)
GROUP BY query_id, item_id
ORDER BY query_id, item_id;
