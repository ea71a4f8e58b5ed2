"""The BEIR layout (Thakur et al., 2021), which many tool sets are published in.

``<root>/corpus.jsonl`` — ``{_id, title, text, metadata?}`` per line; ``<root>/queries.jsonl`` —
``{_id, text, metadata?}``; ``<root>/qrels/<split>.tsv`` — a header line
``query-id<TAB>corpus-id<TAB>score`` then one judgment per line.

Only queries judged in the split are loaded (BEIR evaluates exactly those). Judgments with score
<= 0 are not ground truth and are skipped; the rest keep their score as relevance and their file
order per query as slot. A score is a whole number ('2.0' is 2): a fraction is refused at its
line (trec_eval would truncate 1.5 to 1 and 0.4 to 0, changing a grade without a word). A
(query, doc) pair judged on several lines (a query that uses one tool twice; trec_eval and
pytrec_eval accept this) is one qrel with the highest score, and the load says how many lines
were merged.

An item's doc is the corpus record without ``_id`` (its ``metadata`` merged in). Its fields:

* ``title``    the item's name when given (BEIR allows it);
* ``metadata`` ``name``, ``platform`` (or ``tool_name``), ``category`` (or ``category_name``)
               and ``task`` set those fields; the rest stays in the doc;
* ``text``     when it packs ToolBench fields (``category_name: …, tool_name: …, api_name: …,
               api_description: …, required_params: […], optional_params: […]``, as tool sets
               converted to BEIR do), it is parsed back into that record: the name is
               ``api_name``, the platform ``tool_name``, the category ``category_name``, the
               description ``api_description`` and the parameters the two lists, exactly as
               ``load stabletoolbench`` reads them, so the judges and the platform rule see the
               same fields. Other text is the item's description: the doc is then
               ``{name: title, description: text}`` plus the record's other fields, as a plain
               item with text.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from toolex.errors import InputError
from toolex.loaders.benchmark import Benchmark, item_row
from toolex.loaders.fields import Where, check_id, get_id, get_str, relevance_of
from toolex.loaders.readers import iter_dicts, iter_jsonl, loads, read_text
from toolex.loaders.trec_ids import trec_unescape as _trec_unescape

# Packed ToolBench keys -> the api_list field they come from (StableToolBench's names).
PACKED_KEYS = {
    "category_name": "category_name",
    "tool_name": "tool_name",
    "tool_description": "tool_description",
    "api_name": "api_name",
    "api_description": "api_description",
    "required_params": "required_parameters",
    "required_parameters": "required_parameters",
    "optional_params": "optional_parameters",
    "optional_parameters": "optional_parameters",
    "method": "method",
    "template_response": "template_response",
    "return_schema": "template_response",
}
_PACKED_KEY = re.compile(r"(?:^|,\s*|\n)(" + "|".join(PACKED_KEYS) + r"):\s*")
_LIST_FIELDS = ("required_parameters", "optional_parameters", "template_response")


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
    bench = Benchmark(name, "beir", str(root), qrel_field="corpus-id")
    packed = 0
    for rec, line in iter_dicts(corpus, iter_jsonl(corpus)):
        where = Where(str(corpus), line, what="item id")
        item_id = get_id(rec, "_id", where)
        where = Where(str(corpus), line, item_id, what="item id")
        if not str(rec.get("text") or "").strip() and not str(rec.get("title") or "").strip():
            raise where.error("empty text", "text")
        doc, fields = corpus_doc(rec)
        packed += "api_name" in doc and "text" not in doc
        bench.add_item(item_row(item_id, doc, where, kind=kind, **fields), where)
    if packed:
        bench.notes.append(
            f"{packed} corpus text(s) packed ToolBench fields (category_name, tool_name, "
            "api_name, ...); parsed into name, platform, category, description and parameters"
        )
    judged = _read_judgments(bench, qrels)
    for rec, line in iter_dicts(queries, iter_jsonl(queries)):
        where = Where(str(queries), line, what="query id")
        query_id = get_id(rec, "_id", where)
        if query_id not in judged:
            continue
        where = Where(str(queries), line, query_id, what="query id")
        given = rec.get("metadata")
        meta: dict[str, object] = given if isinstance(given, dict) else {}
        bench.add_query(
            {
                "query_id": query_id,
                "task": _opt_str(meta.get("task")),
                "category": _opt_str(meta.get("category")),
                "text": get_str(rec, "text", where),
                "instruction": _opt_str(meta.get("instruction")),
            },
            where,
        )
        # the call chain, when a converted benchmark keeps it (the plain schema's field)
        bench.add_edges(query_id, meta.get("dependencies"), where, "metadata.dependencies")
    return bench


def corpus_doc(rec: Mapping[str, object]) -> tuple[dict[str, object], dict[str, str | None]]:
    """A corpus record's doc and item fields (name, platform, category, task); see the module
    docstring for where each comes from."""
    raw_meta, raw_text = rec.get("metadata"), rec.get("text")
    meta: dict[str, object] = raw_meta if isinstance(raw_meta, dict) else {}
    text = raw_text if isinstance(raw_text, str) else ""
    title = _opt_str(rec.get("title"))
    api = parse_packed(text)
    if api is not None:
        doc: dict[str, object] = api | {k: v for k, v in meta.items() if k not in api}
        if title and title != api.get("api_name"):
            doc["title"] = title
        return doc, {
            "name": _opt_str(api.get("api_name")) or title,
            "platform": _opt_str(api.get("tool_name")) or _opt_str(meta.get("platform")),
            "category": _opt_str(api.get("category_name")) or _opt_str(meta.get("category")),
            "task": _opt_str(meta.get("task")),
        }
    # As a plain item with text: {name, description}, so the judges read the text as what it is.
    doc = {"name": title} if title else {}
    doc |= {"description": text} if text.strip() else {}
    doc |= {k: v for k, v in rec.items() if k not in ("_id", "metadata", "title", "text")} | meta
    return doc, {
        "name": _opt_str(meta.get("name")) or title,
        "platform": _opt_str(meta.get("platform")) or _opt_str(meta.get("tool_name")),
        "category": _opt_str(meta.get("category")) or _opt_str(meta.get("category_name")),
        "task": _opt_str(meta.get("task")),
    }


def parse_packed(text: str) -> dict[str, object] | None:
    """The ToolBench record packed in ``text`` (``key: value, key: value, ...``), or None when the
    text does not have that shape: it must start with a known key and name both ``tool_name``
    and ``api_name``. Parameter lists written as JSON or Python literals become lists."""
    marks = list(_PACKED_KEY.finditer(text))
    if not marks or marks[0].start() != 0:
        return None
    keys = {m.group(1) for m in marks}
    if not {"tool_name", "api_name"} <= keys:
        return None
    out: dict[str, object] = {}
    for mark, nxt in zip(marks, [*marks[1:], None], strict=True):
        value = text[mark.end() : nxt.start() if nxt else len(text)].strip()
        field = PACKED_KEYS[mark.group(1)]
        if field in out:  # a key repeated inside a value: keep the first, real one
            continue
        out[field] = _literal(value) if field in _LIST_FIELDS else value
    return out


def _literal(value: str) -> object:
    """A list or object written as JSON or as a Python literal; else the text itself."""
    if not value or value[0] not in "[{":
        return value
    try:
        return loads(value)  # bounded nesting: a RecursionError is a ValueError here
    except ValueError:
        pass
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return value


def _opt_str(value: object) -> str | None:
    if isinstance(value, str) and value.strip():
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


# -- qrels --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judgment:
    query_id: str
    item_id: str
    relevance: int
    line: int


@dataclass
class QrelsFile:
    """The judgments of a qrels file, one per (query, item), in file order."""

    path: str
    judgments: list[Judgment]
    merged: int  # lines that judged a (query, item) pair judged earlier (max relevance kept)

    def note(self) -> str | None:
        if not self.merged:
            return None
        return (
            f"{self.merged} qrels line(s) repeat a (query id, corpus id) pair (a query that uses "
            "one tool twice); merged, keeping the highest score"
        )


def read_qrels(path: str | Path) -> QrelsFile:
    """Judgments from a BEIR qrels TSV (``query-id corpus-id score``, header optional) or a TREC
    qrels file (``qid 0 docid relevance``, whitespace separated). Repeated pairs keep the highest
    relevance; every judgment is kept, whatever its relevance (the caller decides)."""
    path = Path(path)
    best: dict[tuple[str, str], Judgment] = {}
    merged = 0
    for lineno, line in enumerate(read_text(path).split("\n"), start=1):
        if not line.strip():
            continue
        cols = line.rstrip("\r").split("\t")
        if len(cols) != 3:
            cols = line.split()
            if len(cols) == 4:  # TREC: qid iter docid relevance, ids escaped as TREC writes
                cols = [_trec_unescape(cols[0]), _trec_unescape(cols[2]), cols[3]]
        if lineno == 1 and cols[0].strip().lower() in ("query-id", "query_id", "qid"):
            continue
        where = Where(str(path), lineno)
        if len(cols) != 3:
            raise where.error(
                "expected 3 tab-separated columns 'query-id corpus-id score' (BEIR) or 4 "
                f"'qid 0 docid relevance' (TREC), found {len(cols)}"
            )
        # ids are taken as written between the tabs: they may hold spaces, even leading ones
        # (StableToolBench has a tool named " Quotes API")
        query_id, item_id, score = cols[0], cols[1], cols[2].strip()
        where = Where(str(path), lineno, query_id, what="query id")
        check_id(query_id, where, "query-id")
        check_id(item_id, where, "corpus-id")
        relevance = relevance_of(score, where)
        key = (query_id, item_id)
        if key in best:
            merged += 1
            if relevance > best[key].relevance:
                best[key] = Judgment(query_id, item_id, relevance, best[key].line)
            continue
        best[key] = Judgment(query_id, item_id, relevance, lineno)
    return QrelsFile(str(path), list(best.values()), merged)


def _read_judgments(bench: Benchmark, path: Path) -> set[str]:
    """Add the split's positive judgments to ``bench`` as qrels; returns the judged query ids."""
    qrels = read_qrels(path)
    judged: set[str] = set()
    slots: dict[str, int] = {}
    for j in qrels.judgments:
        if j.relevance <= 0:
            continue
        slot = slots.get(j.query_id, 0)
        slots[j.query_id] = slot + 1
        judged.add(j.query_id)
        where = Where(str(path), j.line, j.query_id, what="query id")
        bench.add_qrel(j.query_id, j.item_id, j.relevance, slot, where)
    note = qrels.note()
    if note:
        bench.notes.append(note)
    return judged
