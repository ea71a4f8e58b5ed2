"""What every export needs: which benchmark and expansion (both must exist); where it may write
is toolex.exports.files'."""

from __future__ import annotations

from toolex.store import Store


def resolve(store: Store, benchmark: str | None, expansion: str) -> tuple[str, str]:
    """(benchmark, expansion), both checked. The benchmark is the named one or the store's only
    one: exports are per benchmark because query ids of two benchmarks may collide in one file.
    A misspelled expansion would otherwise export the original annotation alone, silently."""
    benchmark = store.require_benchmark(benchmark)
    return benchmark, store.require_expansion(benchmark, expansion)
