"""The BEIR layout (Thakur et al., 2021), which many tool sets are published in.

``<root>/corpus.jsonl`` — ``{_id, title, text, metadata?}`` per line; ``<root>/queries.jsonl`` —
``{_id, text, metadata?}``; ``<root>/qrels/<split>.tsv`` — a header line
``query-id<TAB>corpus-id<TAB>score`` then one judgment per line.

Only queries judged in the split are loaded (BEIR evaluates exactly those). Judgments with score
<= 0 are not ground truth and are skipped; the rest keep their score as relevance and their file
order per query as slot. An item's doc is the corpus record without ``_id`` (its metadata merged
in), rendered like every other doc.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolex.errors import InputError
from toolex.loaders.common import Benchmark, Where, get_str, item_row
from toolex.loaders.readers import iter_dicts, read_jsonl, read_text


def read_beir(
    path: str | Path, *, split: str = "test", name: str = "beir", kind: str = "tool"
) -> Benchmark:
    root = Path(path)
    corpus, queries, qrels = (
        root / "corpus.jsonl",
        root / "queries.jsonl",
        root / "qrels" / f"{split}.tsv",
    )
    for f in (corpus, queries, qrels):
        if not f.is_file():
            raise InputError(f"missing {f.relative_to(root)} (BEIR layout)", path=str(root))
    bench = Benchmark(name, "beir", str(root), label_field="corpus-id")
    for rec, line in iter_dicts(corpus, read_jsonl(corpus)):
        where = Where(str(corpus), line)
        item_id = get_str(rec, "_id", where)
        where = Where(str(corpus), line, item_id)
        meta: dict[str, Any] = rec["metadata"] if isinstance(rec.get("metadata"), dict) else {}
        doc = {k: v for k, v in rec.items() if k not in ("_id", "metadata")} | meta
        if not str(doc.get("text") or "").strip() and not str(doc.get("title") or "").strip():
            raise where.error("empty text", "text")
        title = rec.get("title") if isinstance(rec.get("title"), str) and rec.get("title") else None
        bench.add_item(item_row(item_id, doc, where, kind=kind, name=title), where)
    judged = _read_qrels(bench, qrels)
    for rec, line in iter_dicts(queries, read_jsonl(queries)):
        where = Where(str(queries), line)
        query_id = get_str(rec, "_id", where)
        if query_id not in judged:
            continue
        where = Where(str(queries), line, query_id)
        meta = rec["metadata"] if isinstance(rec.get("metadata"), dict) else {}
        bench.add_query(
            {
                "query_id": query_id,
                "task": meta.get("task"),
                "category": meta.get("category"),
                "text": get_str(rec, "text", where),
                "instruction": meta.get("instruction"),
            },
            where,
        )
    return bench


def _read_qrels(bench: Benchmark, path: Path) -> set[str]:
    judged: set[str] = set()
    slots: dict[str, int] = {}
    lines = read_text(path).split("\n")
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        cols = line.rstrip("\r").split("\t")
        if lineno == 1 and cols[0].strip().lower() in ("query-id", "query_id", "qid"):
            continue
        where = Where(str(path), lineno)
        if len(cols) != 3:
            raise where.error(f"expected 3 tab-separated columns, found {len(cols)}")
        query_id, item_id, score = (c.strip() for c in cols)
        try:
            relevance = int(float(score))
        except ValueError:
            raise where.error(f"score {score!r} is not a number", "score") from None
        if relevance <= 0:
            continue
        slot = slots.get(query_id, 0)
        slots[query_id] = slot + 1
        judged.add(query_id)
        bench.add_qrel(query_id, item_id, relevance, slot, Where(str(path), lineno, query_id))
    return judged
