-- 12_edge_fit_rule: reject, before any audit call, combinations whose replacement of a producer
-- or consumer on an explicit edge cannot hand the value on, as its own docs show.
-- Reads: edge_fit (registered by toolex.pipeline.assemble: query_id, slot, item_id, value, role,
-- other_slot, source, fit = yes | no | unknown), assembly_round_items (08: the round's members).
-- Updates: assembly_round.status of pending ones to 'rejected_platform'. Parameters: none.
-- Only a documented 'no' rejects: docs that list nothing leave the fit 'unknown' (17 records it).
UPDATE assembly_round c
SET status = 'rejected_platform', reason = v.reason, judge = 'platform_rule'
FROM (
    SELECT ci.query_id, ci.combo_id,
           min('slot ' || f.slot || ': ' || f.item_id || CASE f.role
                 WHEN 'produce' THEN ' documents no ''' || f.value || ''' to hand to slot '
                 ELSE ' takes no ''' || f.value || ''' from slot ' END
               || f.other_slot || ' (' || f.source || ' edge)') AS reason
    FROM edge_fit f
    JOIN assembly_round_items ci ON ci.query_id = f.query_id AND ci.slot = f.slot AND ci.item_id = f.item_id
    WHERE f.fit = 'no'
    GROUP BY ci.query_id, ci.combo_id
) v
WHERE c.query_id = v.query_id AND c.combo_id = v.combo_id AND c.status = 'pending';
