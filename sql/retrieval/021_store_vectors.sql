-- 021_store_vectors: add freshly computed embeddings to the cache.
-- Reads: the registered Arrow table retrieval_new(text_hash, vector). Creates: rows in embeddings.
-- Parameters: $embedder (the embedder's cache key). Hashes already cached are left alone.
INSERT INTO embeddings (embedder, text_hash, vector)
SELECT $embedder, n.text_hash, n.vector
FROM retrieval_new AS n
WHERE NOT EXISTS (
    SELECT 1 FROM embeddings AS e WHERE e.embedder = $embedder AND e.text_hash = n.text_hash
)
