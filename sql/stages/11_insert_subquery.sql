-- 11_insert_subquery: store one sub-query (stage 1 outcome); a repeat is ignored.
-- Reads: nothing. Creates: a subqueries row. Parameters: $benchmark, $expansion, $query_id,
-- $slot, $text, $operation, $entity, $ref_item_id, $judge, $call_id.
INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, operation, entity,
                        ref_item_id, judge, call_id)
VALUES ($benchmark, $expansion, $query_id, $slot, $text, $operation, $entity, $ref_item_id,
        $judge, $call_id)
ON CONFLICT DO NOTHING;
