-- 02_verify_docs: the documentation of the items the pending verify tasks involve (candidates and
-- references), one row per item. Reads: items. Creates: nothing (item_id, name, platform, doc,
-- text, kind). Parameters: $benchmark, $item_ids (VARCHAR[]: the distinct items of 01's rows).
-- Apart from 01 so that each doc crosses over once and one ToolDoc serves every task naming it:
-- on 01's rows the docs made memory grow with tasks x doc size (5.5 GB at 477,501 tasks).
-- The IN over an unnested list is a hash semi-join, not a list scan per row.
SELECT i.item_id, i.name, i.platform, i.doc, i.text, i.kind
FROM items i
WHERE i.benchmark = $benchmark
  AND i.item_id IN (SELECT unnest($item_ids));
