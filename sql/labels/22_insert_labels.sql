-- 22_insert_labels: store the imported labels.
-- Reads: new_labels (registered: the labels table's columns, stratum as JSON text).
-- Creates: labels rows. Parameters: none.
INSERT INTO labels (benchmark, query_id, slot, subquery, reference, candidate, label, labeller,
                    note, source, stratum)
SELECT benchmark, query_id, slot, subquery, reference, candidate, label, labeller, note, source,
       CAST(stratum AS JSON)
FROM new_labels;
