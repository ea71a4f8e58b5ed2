-- 21_delete_sources: drop every label of the sources being imported (the import replaces them).
-- Reads: new_labels (registered). Deletes: labels rows. Parameters: none.
DELETE FROM labels
WHERE source IN (SELECT DISTINCT source FROM new_labels);
