"""What the loaders' tables hold, read back: the one module that names the ``load/`` SQL files
it reads, each read a typed row (toolex/loaders/write.py names the files that write them).
Other packages ask here, never the SQL (``stored_benchmark`` for where a benchmark came from,
``benchmark_items`` for its item ids)."""

from __future__ import annotations

import datetime
from typing import NamedTuple

from toolex.store import Store


class StoredBenchmark(NamedTuple):
    """A ``benchmarks`` row: a benchmark as the store holds it (its fields are the table's
    columns, which a test keeps equal)."""

    benchmark: str
    format: str
    source: str
    revision: str | None
    loaded_at: datetime.datetime


class StoredItem(NamedTuple):
    """An item's id, name and platform, as an alternative documentation file is checked and
    rendered against them (``platform_source``: where the platform came from)."""

    item_id: str
    name: str
    platform: str | None
    platform_source: str | None


class Referrers(NamedTuple):
    """How many runs and expansions name a benchmark (what ``--replace`` leaves pointing at it)."""

    runs: int
    expansions: int


class RenderingDiff(NamedTuple):
    """A rendering's stored documents, and how many of the new ones (``new_item_docs``)
    differ from them."""

    stored: int
    changed: int


def existing_benchmark(store: Store, name: str) -> StoredBenchmark | None:
    """The stored benchmark called ``name``, if any: whether a load is new, the same content
    again (a no-op), or different content (refused unless replaced)."""
    rows = store.rows("load/01_find_benchmark.sql", {"benchmark": name})
    return StoredBenchmark(**rows[0]) if rows else None


def stored_benchmark(store: Store, name: str) -> StoredBenchmark:
    """The stored benchmark called ``name``; the store's error naming the known ones if none."""
    found = existing_benchmark(store, name)
    if found is None:
        store.require_benchmark(name)  # the store's error, naming the close names
        raise LookupError(name)  # not reached: require_benchmark raised
    return found


def benchmark_refs(store: Store, benchmark: str) -> Referrers:
    return Referrers(**store.rows("load/02_benchmark_refs.sql", {"benchmark": benchmark})[0])


def benchmark_items(store: Store, benchmark: str) -> list[StoredItem]:
    """Every item of ``benchmark`` (id, name, platform), in no particular order."""
    rows = store.rows("load/30_items_of_benchmark.sql", {"benchmark": benchmark})
    return [StoredItem(**r) for r in rows]


def rendering_diff(store: Store, benchmark: str, rendering: str) -> RenderingDiff:
    """Stored and changed documents of a rendering against the registered ``new_item_docs``."""
    params = {"benchmark": benchmark, "rendering": rendering}
    return RenderingDiff(**store.rows("load/31_rendering_diff.sql", params)[0])
