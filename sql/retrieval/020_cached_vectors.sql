-- 020_cached_vectors: embeddings already in the cache for the wanted texts.
-- Reads: embeddings, the registered Arrow table retrieval_wanted(text_hash). Creates: nothing.
-- Parameters: $embedder (the embedder's cache key).
SELECT w.text_hash, e.vector
FROM retrieval_wanted AS w
JOIN embeddings AS e ON e.embedder = $embedder AND e.text_hash = w.text_hash
