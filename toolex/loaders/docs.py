"""Alternative documentation of already-loaded items (Tool-DE-style document expansion), stored
as a second rendering in ``item_docs`` beside the default ``items.text``.

Input: a JSON array (or JSONL/Parquet) of ``{id, augmented: {...}}`` — the shape of ToolRet's
``augmented_tools_<task>/<model>_tools.json`` — or ``{id, doc: {...}}``. The expanded doc is
stored as given; its text goes through ``render_doc`` with the item's own name prepended when the
expansion lacks one (expansions rewrite description and parameters, and a nameless rendering
would lose the tool's most telling token). Every id must name an item of the benchmark.
Reloading the same file is a no-op; different content for an existing rendering needs replace.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from toolex.errors import InputError, ToolexError
from toolex.loaders.fields import Where, dump_doc, get_doc, get_str
from toolex.loaders.platforms import shown_platform
from toolex.loaders.queries import benchmark_items, rendering_diff
from toolex.loaders.readers import iter_dicts, iter_records
from toolex.store import Store
from toolex.tooldoc.render import render_doc

DOC_SCHEMA = pa.schema([("item_id", pa.string()), ("doc", pa.string()), ("text", pa.string())])


@dataclass
class DocsResult:
    benchmark: str
    rendering: str
    status: str  # loaded | replaced | unchanged
    items: int

    def summary(self) -> str:
        verb = {"unchanged": "already loaded, unchanged"}.get(self.status, self.status)
        return f"{self.benchmark}/{self.rendering}: {verb} ({self.items} documents)"


def item_ids(store: Store, benchmark: str) -> set[str]:
    """The id of every item of ``benchmark``."""
    return {
        r["item_id"] for r in store.rows("load/30_items_of_benchmark.sql", {"benchmark": benchmark})
    }


def load_docs(
    store: Store, path: str | Path, *, benchmark: str, rendering: str, replace: bool = False
) -> DocsResult:
    if rendering == "default":
        raise ToolexError("the rendering name 'default' is items.text itself; choose another name")
    store.require_benchmark(benchmark)
    known = {item.item_id: item for item in benchmark_items(store, benchmark)}
    rows, seen = [], set()
    for rec, line in iter_dicts(path, iter_records(path)):
        where = Where(str(path), line)
        item_id = get_str(rec, "id", where)
        where = Where(str(path), line, item_id)
        if item_id not in known:
            raise where.error(f"id names no item of benchmark {benchmark!r}", "id")
        if item_id in seen:
            raise where.error(f"duplicate item id {item_id!r}", "id")
        seen.add(item_id)
        doc = get_doc(rec, "augmented" if "augmented" in rec else "doc", where)
        item = known[item_id]
        shown = doc if doc.get("name") or not item.name else {"name": item.name, **doc}
        text = render_doc(shown, platform=shown_platform(item.platform, item.platform_source))
        rows.append({"item_id": item_id, "doc": dump_doc(doc), "text": text})
    if not rows:
        raise InputError("no documents in the file", path=str(path))
    params = {"benchmark": benchmark, "rendering": rendering}
    table = pa.Table.from_pylist(rows, schema=DOC_SCHEMA)
    with store.registered("new_item_docs", table):
        diff = rendering_diff(store, benchmark, rendering)
        status = "loaded"
        if diff.stored:
            if diff.stored == len(rows) and not diff.changed and not replace:
                return DocsResult(benchmark, rendering, "unchanged", len(rows))
            if not replace:
                raise ToolexError(
                    f"rendering {rendering!r} of {benchmark!r} already holds {diff.stored} "
                    "different documents; pass --replace to swap them"
                )
            status = "replaced"
        with store.transaction():
            store.execute("load/32_delete_rendering.sql", params)
            store.execute("load/33_insert_item_docs.sql", params)
    return DocsResult(benchmark, rendering, status, len(rows))
