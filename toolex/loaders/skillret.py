"""SkillRet (ThakiCloud/SKILLRET): ``<root>/{skills,queries,qrels}/<split>.jsonl``, the plain
schema under a field mapping (``SKILLRET_FIELDS``), its graded qrels kept for what they are.

* a skill ``{id, name, description, skill_md?, ...}`` is an item of kind ``skill`` whose doc is
  ``{name, description, skill_md}`` (the text SkillRet embeds: name, description, body);
* a query ``{id, query, setting?, category?, skill_ids?|labels?}`` is a query (``setting``,
  e.g. multi_skill_composition, is its task);
* qrels come from the qrels file (``{query_id, skill_id, relevance}``, graded) when present,
  else from each query's ``labels`` (``[{id, relevance}]``) or ``skill_ids`` (relevance 1).
  The qrels of a query's top grade are its annotated combination (SkillRet's "seed" skills,
  2); a lower grade (1, "functionally substitutable") is an alternative to a seed, not a
  further step.

The substitutable qrels are the benchmark's own equivalents. ``substitutable="equivalents"``
(the default; the paper does not say how it uses them) returns them as :class:`Substitute`
records, which
`toolex load skillret` imports as valid combinations of an expansion (the seed swapped for its
substitute; default expansion ``substitutable``): `eval --expansion substitutable` scores against
them, `export triples` keeps them out of the negatives. A substitute stands in for the seed its
record names (``seed_id``, ``seed_skill_id``, ``substitutes`` or ``for``), else for the query's
only seed; one of a multi-seed query that names no seed cannot be placed and is skipped,
counted in a note. ``"skip"`` drops them all (counted), as toolex did before.

The version loaded is recorded in the benchmark's source (``benchmarks.source``, `toolex info`):
SkillRet's test split had 4,997 queries in v1.0 and 4,392 in v1.1, after an equivalence audit
(``VERSIONS``); another count is said as such.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from toolex.errors import InputError
from toolex.loaders.benchmark import Benchmark
from toolex.loaders.fields import Where
from toolex.loaders.plain import _located, add_items, add_qrels, add_queries

# SkillRet (ThakiCloud/SKILLRET; <root>/{skills,queries,qrels}/<split>.jsonl) -> plain schema.
SKILLRET_FIELDS = {
    "skills": {"id": "id", "name": "name", "description": "text", "skill_md": "doc.skill_md"},
    "queries": {"id": "id", "query": "text", "setting": "task", "category": "category"},
    "qrels": {"query_id": "query_id", "skill_id": "item_id", "relevance": "relevance"},
}
SUBSTITUTABLE = ("equivalents", "skip")
# The benchmark's own equivalents count as such (the paper does not say how it uses them).
SUBSTITUTABLE_DEFAULT = "equivalents"
SUBSTITUTES_EXPANSION = "substitutable"  # the expansion `load skillret` imports them into
VERSIONS = {4997: "v1.0", 4392: "v1.1"}  # queries of the test split -> SkillRet release
SEED_FIELDS = ("seed_id", "seed_skill_id", "substitutes", "for")
# Combinations made per query from its substitutes (each slot: its seed or one substitute);
# SkillRet grades a handful per query, so this only stops a malformed file from exploding.
MAX_COMBINATIONS = 1000


@dataclass(frozen=True)
class Substitute:
    """A substitutable qrel placed on its seed: ``item_id`` may stand in for the skill of
    ``slot`` in query ``query_id``; ``line`` is where the qrel was read."""

    query_id: str
    slot: int
    item_id: str
    line: int | None


@dataclass(frozen=True)
class SubstituteMember:
    """One member of a combination made of substitutes (:func:`substitute_records`): a
    combination file's row ``query_id, combo_id, slot, item_id``, with the line of the first
    substitute the combination holds."""

    query_id: str
    combo_id: int
    slot: int
    item_id: str
    line: int | None

    def record(self) -> dict[str, object]:
        """The row as a combination file holds it (what toolex.expansions imports)."""
        return {
            "query_id": self.query_id,
            "combo_id": self.combo_id,
            "slot": self.slot,
            "item_id": self.item_id,
        }


@dataclass
class SkillRet:
    benchmark: Benchmark
    version: str  # "v1.1 (4,392 test queries)"
    qrels_path: Path  # the file the qrels came from (qrels, or the queries)
    substitutes: list[Substitute] = field(default_factory=list)


def read_skillret(
    root: str | Path,
    *,
    split: str = "test",
    name: str = "skillret",
    substitutable: str = SUBSTITUTABLE_DEFAULT,
) -> SkillRet:
    """Read a SkillRet-style skill library (see the module docstring)."""
    if substitutable not in SUBSTITUTABLE:
        raise InputError(
            f"--substitutable must be one of {', '.join(SUBSTITUTABLE)}, not {substitutable!r}",
            field="--substitutable",
        )
    root = Path(root)
    paths = {part: root / part / f"{split}.jsonl" for part in ("skills", "queries", "qrels")}
    for part in ("skills", "queries"):
        if not paths[part].is_file():
            raise InputError(
                f"missing {part}/{split}.jsonl (SkillRet layout: skills/, queries/, qrels/)",
                path=str(root),
            )
    queries = list(_located(paths["queries"], "query id"))
    version = _version(len(queries), split)
    bench = Benchmark(name, "skillret", f"{root} (SkillRet {version})", qrel_field="skill_id")
    add_items(bench, (_skill(rec, where) for rec, where in _located(paths["skills"])), "skill")
    add_queries(bench, (_query(rec, where) for rec, where in queries))
    qrels_path, qrels = _read_qrels(paths, queries)
    seeds, lower = _by_grade(qrels)
    add_qrels(bench, seeds)
    bench.notes.append(f"SkillRet {version}")
    out = SkillRet(bench, version, qrels_path)
    if lower and substitutable == "skip":
        bench.notes.append(
            f"{len(lower)} qrel(s) graded below their query's top grade (SkillRet's "
            "'functionally substitutable' skills) skipped (--substitutable skip)"
        )
    elif lower:
        out.substitutes = _place(bench, lower)
    return out


# A qrel as read: its qrel fields, where it was read, and the record it came from
QrelRead = tuple[dict[str, object], Where, Mapping[str, object]]


def _read_qrels(
    paths: dict[str, Path], queries: Sequence[tuple[Mapping[str, object], Where]]
) -> tuple[Path, list[QrelRead]]:
    """The qrels, from qrels/ when the split has a file there, else from the queries' own."""
    if not paths["qrels"].is_file():
        return paths["queries"], [
            qrel for rec, where in queries for qrel in _query_qrels(rec, where)
        ]
    # an error names skill_id, as the file spells it, not the plain schema's item_id
    spelled = (("item_id", "skill_id"),)
    return paths["qrels"], [
        (
            {"query_id": r.get("query_id"), "item_id": r.get("skill_id"), **_grade(r)},
            replace(w, fields=spelled),
            r,
        )
        for r, w in _located(paths["qrels"], "query id")
    ]


def _by_grade(
    qrels: list[QrelRead],
) -> tuple[list[tuple[dict[str, object], Where]], list[QrelRead]]:
    """The qrels at their query's top grade (the seeds), and those graded below it."""
    top: dict[object, int | float] = {}
    for rec, _, _ in qrels:
        grade = rec.get("relevance", 1)
        if isinstance(grade, int | float):
            top[rec["query_id"]] = max(top.get(rec["query_id"], grade), grade)
    graded = [
        (r, w, raw, r.get("relevance", 1) == top.get(r["query_id"], 1)) for r, w, raw in qrels
    ]
    seeds = [(r, w) for r, w, _, seed in graded if seed]
    lower = [(r, w, raw) for r, w, raw, seed in graded if not seed]
    return seeds, lower


def substitute_records(data: SkillRet) -> Iterator[SubstituteMember]:
    """The substitutes as combinations to import (toolex.expansions): per query, every choice
    of its seed or one of its substitutes in each slot, the original left out; members
    ``query_id, combo_id, slot, item_id`` with the line of the first substitute they hold."""
    by_query: dict[str, dict[int, list[Substitute]]] = {}
    for s in data.substitutes:
        by_query.setdefault(s.query_id, {}).setdefault(s.slot, []).append(s)
    seeds: dict[str, dict[int, str]] = {}
    for q in data.benchmark.qrels:
        seeds.setdefault(q["query_id"], {})[q["slot"]] = q["item_id"]
    for query_id, placed in by_query.items():
        slots = sorted(seeds[query_id])
        choices = [
            [(seeds[query_id][slot], None)] + [(s.item_id, s) for s in placed.get(slot, [])]
            for slot in slots
        ]
        combos = itertools.islice(itertools.product(*choices), 1, MAX_COMBINATIONS + 1)
        for combo_id, combo in enumerate(combos, start=1):
            line = next(s.line for _, s in combo if s is not None)
            for slot, (item_id, _) in zip(slots, combo, strict=True):
                yield SubstituteMember(query_id, combo_id, slot, item_id, line)


def _place(bench: Benchmark, lower: list[QrelRead]) -> list[Substitute]:
    """Each lower-graded qrel on the seed it stands in for; notes for what cannot be placed."""
    seeds: dict[str, dict[str, int]] = {}
    for q in bench.qrels:
        seeds.setdefault(q["query_id"], {})[q["item_id"]] = q["slot"]
    placed, unplaced = [], 0
    for rec, where, raw in lower:
        query_id, item_id = rec.get("query_id"), rec.get("item_id")
        if not isinstance(query_id, str) or query_id not in seeds:
            raise where.error(f"qrel names no query: {query_id!r}", "query_id")
        if not isinstance(item_id, str) or not bench.has_item(item_id):
            raise where.error(f"qrel names no item: {item_id!r}", "skill_id")
        of_query = seeds[query_id]
        named = next((raw[k] for k in SEED_FIELDS if raw.get(k) is not None), None)
        if named is not None:
            if named not in of_query:
                raise where.error(
                    f"names {named!r} as the seed it substitutes, not a seed of the query "
                    f"({', '.join(sorted(of_query))})",
                    next(k for k in SEED_FIELDS if raw.get(k) is not None),
                )
            slot = of_query[named]
        elif len(of_query) == 1:
            slot = next(iter(of_query.values()))
        else:
            unplaced += 1
            continue
        if item_id in of_query:
            continue  # a seed graded twice: already the original
        placed.append(Substitute(query_id, slot, item_id, where.line))
    bench.notes.append(
        f"{len(placed)} 'functionally substitutable' qrel(s) (graded below their query's top "
        "grade) are equivalents of their seed: imported as valid combinations"
    )
    if unplaced:
        bench.notes.append(
            f"{unplaced} substitutable qrel(s) of multi-skill queries name no seed "
            f"({', '.join(SEED_FIELDS)}): which step they replace is unknown, skipped"
        )
    return placed


def _version(queries: int, split: str) -> str:
    if split == "test" and queries in VERSIONS:
        return f"{VERSIONS[queries]} ({queries:,} test queries)"
    return f"version unknown ({queries:,} {split} queries; v1.0 has 4,997 test, v1.1 4,392)"


def _skill(rec: Mapping[str, object], where: Where) -> tuple[dict[str, object], Where]:
    doc = {k: rec[k] for k in ("name", "description", "skill_md") if rec.get(k)}
    if not doc.get("description") and not doc.get("skill_md"):
        raise where.error("a skill needs a description or a skill_md body", "description")
    out = {"id": rec.get("id"), "name": rec.get("name"), "doc": doc}
    for key in ("category", "platform"):
        if isinstance(rec.get(key), str):
            out[key] = rec[key]
    return out, where


def _query(rec: Mapping[str, object], where: Where) -> tuple[dict[str, object], Where]:
    out = {"id": rec.get("id"), "text": rec.get("query", rec.get("text"))}
    if isinstance(rec.get("setting"), str):
        out["task"] = rec["setting"]
    if isinstance(rec.get("category"), str):
        out["category"] = rec["category"]
    return out, where


def _query_qrels(rec: Mapping[str, object], where: Where) -> Iterator[QrelRead]:
    given = rec.get("labels")  # SkillRet's field name for a query's own relevance judgements
    if given is None:
        ids = rec.get("skill_ids")
        if not isinstance(ids, list):
            raise where.error("no qrels file, and the query has no labels or skill_ids", "labels")
        given = [{"id": i, "relevance": 1} for i in ids]
    if not isinstance(given, list):
        raise where.error("expected a list of {id, relevance}", "labels")
    for raw in given:
        if not isinstance(raw, dict):
            raise where.error(f"expected {{id, relevance}}, found {raw!r}", "labels")
        qrel = {"query_id": rec.get("id"), "item_id": raw.get("id"), **_grade(raw)}
        yield qrel, where, raw


def _grade(rec: Mapping[str, object]) -> dict[str, object]:
    return {"relevance": rec["relevance"]} if rec.get("relevance") is not None else {}
