-- 21_store_reasons: store the group's kept rejections with their reasons (schema 068), in the
-- group's transaction, beside the combinations expansions/31 stores.
-- Reads: assembled_reasons (08, filled by 20). Creates: rule_rejections rows.
-- Parameters: $benchmark, $expansion.
-- OR REPLACE: a query is assembled once (01 takes only queries without combinations); were it
-- assembled again its reasons would be the same ones, ranked the same.
INSERT OR REPLACE INTO rule_rejections (benchmark, expansion, query_id, rrf_rank, items, reason)
SELECT $benchmark, $expansion, query_id, rrf_rank, items, reason
FROM assembled_reasons;
