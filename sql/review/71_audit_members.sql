-- 71_audit_members: the members of a review sample's combinations, slot by slot, with the
-- expansion's sub-query of the slot (the audit checklist) and each tool's documentation.
-- Reads: review_samples, combination_items, subqueries, items. Creates: nothing.
-- Parameters: $sample_id.
SELECT s.query_id, s.combo_id, ci.slot, ci.item_id, sq.text AS subquery,
       i.name, i.platform, i.doc, i.text, i.kind
FROM review_samples AS s
JOIN combination_items AS ci ON ci.benchmark = s.benchmark AND ci.expansion = s.expansion
     AND ci.query_id = s.query_id AND ci.combo_id = s.combo_id
LEFT JOIN subqueries AS sq ON sq.benchmark = s.benchmark AND sq.expansion = s.expansion
     AND sq.query_id = s.query_id AND sq.slot = ci.slot
JOIN items AS i ON i.benchmark = s.benchmark AND i.item_id = ci.item_id
WHERE s.sample_id = $sample_id
ORDER BY s.query_id, s.combo_id, ci.slot;
