"""The embedding model the offline judge reads documents with: the bundled WordLlama (no
network, no download), loaded once per process however many judges ask for it."""

from __future__ import annotations

from toolex.judges.evidence import Embed

_WORDLLAMA: list[Embed] = []


def wordllama() -> Embed:
    """The bundled WordLlama embedder, loaded once per process."""
    if not _WORDLLAMA:
        from toolex.retrieval.embedders import make_embedder

        _WORDLLAMA.append(make_embedder("wordllama").embed)
    return _WORDLLAMA[0]
