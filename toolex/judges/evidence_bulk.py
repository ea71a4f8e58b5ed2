"""The offline verifier's evidence for a whole batch of pairs: each document's and each step's
features worked out once, then only what depends on the pair.

``EvidenceReader.read`` (toolex.judges.evidence) is the reference: it reads one (sub-query,
candidate, reference) at a time and recomputes the parts that depend on one side only (a tool's
"name. description", its word sets and their weights, the step's words) for every pair. A verify
batch holds ~20 candidates per step and each document recurs across hundreds of pairs, so here
those parts are read once per document (``_Doc``) and once per step (``_Step``), and a pair costs
its intersections, four dot products and the rules (toolex.judges.checks, called unchanged).

Every number is computed by the same expression on the same operands as ``read`` (sums over the
same sets in the same order, a float32 dot of the same two vectors), so the evidence, and every
verdict built from it, is identical to the reference's; tests/judges/test_evidence_bulk.py
compares the two on real data.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from toolex.judges import checks, inputs, scope
from toolex.judges import evidence as ev
from toolex.judges.base import ToolDoc, VerifyTask
from toolex.judges.lexicon import SYNONYM_OF
from toolex.judges.tool_facts import returned
from toolex.tooldoc import fields as df

if TYPE_CHECKING:
    from toolex.judges.evidence import EvidenceReader


@dataclass(frozen=True)
class _Doc:
    """What a pair reads of one tool's documentation, the vectors resolved."""

    about: np.ndarray  # embedding of "name. description"
    text: np.ndarray  # embedding of the rendered documentation (first 2,000 characters)
    name: np.ndarray  # embedding of the name's words
    about_words: frozenset[str]
    doc_words: frozenset[str]
    all_words: frozenset[str]
    doc_syn: frozenset[int]
    all_syn: frozenset[int]
    keyed: frozenset[str]  # doc_words | about_words: what a step's key words are read against
    objects: frozenset[str]
    returned: frozenset[str]
    input_words: frozenset[str]


@dataclass(frozen=True)
class Scored:
    """The measurements a strict verdict reads (operating_points.SCORE_WEIGHTS and its reason) of
    a pair every point passes: ``read``'s values of them, by the same expressions."""

    about_sim: float
    doc_sim: float
    object_match: float
    cover: float
    findings: tuple[checks.Finding, ...] = ()


@dataclass(frozen=True)
class _Step:
    vector: np.ndarray  # the sub-query's embedding
    words: set[str]
    said: set[str]


def read_many(
    reader: EvidenceReader,
    tasks: Sequence[VerifyTask],
    findings: Sequence[tuple[checks.Finding, ...]] | None = None,
) -> list[ev.Evidence]:
    """``reader.read`` of every task, in order (``read`` stays the per-pair reference this must
    equal), with the one-sided parts read once
    (``findings``: each task's, when the caller has them already)."""
    reader.prefetch(_texts(tasks))
    vec = reader._vec
    docs: dict[tuple[str, str], _Doc] = {}
    steps: dict[tuple[str, str | None], _Step] = {}
    weight = reader._idf.get
    default = reader._default_idf

    def wsum(words: frozenset[str] | set[str] | list[str]) -> float:
        # exact whatever the order: a set's order follows the process's string hashes
        return math.fsum(map(weight, words, repeat(default)))

    def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
        union = a | b
        if not union:
            return 0.0
        return wsum(a & b) / wsum(union)

    def cover(wanted: set[str], have: frozenset[str], have_syn: frozenset[int]) -> float:
        if not wanted:
            return 1.0
        found = [w for w in wanted if w in have or SYNONYM_OF.get(w, -1) in have_syn]
        return wsum(found) / wsum(wanted)

    def doc(tool: ToolDoc) -> _Doc:
        key = (tool.item_id, tool.text)
        got = docs.get(key)
        if got is None:
            got = docs[key] = _read_doc(tool, vec)
        return got

    out = []
    for i, task in enumerate(tasks):
        c, r = doc(task.candidate), doc(task.reference)
        s = steps.get((task.subquery, task.request))
        if s is None:
            words = set(df.content_tokens(task.subquery))
            s = steps[(task.subquery, task.request)] = _Step(
                vec[task.subquery], words, words | set(df.content_tokens(task.request or ""))
            )
        cand, ref = task.candidate, task.reference
        about_sim = _dot(c.about, r.about)
        out.append(
            ev.Evidence(
                about_sim=about_sim,
                doc_sim=_dot(c.text, r.text),
                sub_sim=_dot(s.vector, c.about),
                cover=cover(s.words & r.keyed, c.doc_words, c.doc_syn),
                cover_doc=cover(s.words & r.all_words, c.all_words, c.all_syn),
                object_match=ev._jaccard(c.objects, r.objects)
                if c.objects and r.objects
                else about_sim,
                overlap=jaccard(r.about_words, c.about_words),
                same_operation=ev.same_operation(cand, ref),
                name_sim=_dot(c.name, r.name),
                inputs_ok=not inputs.missing_inputs(cand, ref, s.said, task.request),
                returns_overlap=jaccard(c.returned, r.returned)
                if c.returned and r.returned
                else 0.5,
                inputs_overlap=jaccard(c.input_words, r.input_words),
                findings=checks.findings(task.subquery, cand, ref, task.request)
                if findings is None
                else findings[i],
            )
        )
    return out


def score_many(reader: EvidenceReader, tasks: Sequence[VerifyTask]) -> list[Scored]:
    """What a strict verdict reads of each task that passes every point: ``about_sim``,
    ``doc_sim``, ``object_match`` and ``cover`` as ``read`` gives them. Only the two texts of each
    document they compare are embedded (in one batch, shortest first: WordLlama pools each text
    over its own tokens, so a batch's padding never changes a vector), not the names nor the
    sub-queries the other measurements read."""
    texts: dict[str, None] = {}
    for t in tasks:
        for tool in (t.candidate, t.reference):
            texts[ev.about_text(tool)] = None
            texts[tool.text[:2000]] = None
    reader.prefetch(sorted(texts, key=len))
    vec = reader._vec
    weight = reader._idf.get
    default = reader._default_idf
    docs: dict[tuple[str, str], _Compared] = {}
    steps: dict[str, set[str]] = {}
    out = []
    for task in tasks:
        c, r = (_compared(docs, tool, vec) for tool in (task.candidate, task.reference))
        words = steps.get(task.subquery)
        if words is None:
            words = steps[task.subquery] = set(df.content_tokens(task.subquery))
        wanted = words & r.keyed
        if wanted:
            found = [w for w in wanted if w in c.doc_words or SYNONYM_OF.get(w, -1) in c.doc_syn]
            cover = math.fsum(map(weight, found, repeat(default))) / math.fsum(
                map(weight, wanted, repeat(default))
            )
        else:
            cover = 1.0
        about_sim = _dot(c.about, r.about)
        out.append(
            Scored(
                about_sim=about_sim,
                doc_sim=_dot(c.text, r.text),
                object_match=ev._jaccard(c.objects, r.objects)
                if c.objects and r.objects
                else about_sim,
                cover=cover,
            )
        )
    return out


class _Compared(NamedTuple):
    """What ``score_many`` compares of one document (the fields of ``_Doc`` it reads), read once
    per (item, text)."""

    about: np.ndarray
    text: np.ndarray
    doc_words: frozenset[str]
    keyed: frozenset[str]
    doc_syn: frozenset[int]
    objects: frozenset[str]


def _compared(
    docs: dict[tuple[str, str], _Compared], tool: ToolDoc, vec: dict[str, np.ndarray]
) -> _Compared:
    key = (tool.item_id, tool.text)
    got = docs.get(key)
    if got is None:
        doc_words, about_words = ev._doc_words(tool), ev._about_words(tool)
        got = docs[key] = _Compared(
            vec[ev.about_text(tool)],
            vec[tool.text[:2000]],
            doc_words,
            doc_words | about_words,
            ev._doc_synonyms(tool),
            scope.objects(tool),
        )
    return got


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    value = float(a @ b)
    return value if math.isfinite(value) else 0.0


def _texts(tasks: Sequence[VerifyTask]) -> list[str]:
    """``ev.texts_to_embed`` with each document's texts said once."""
    seen: set[tuple[str, str]] = set()
    out: list[str] = []
    for t in tasks:
        for tool in (t.candidate, t.reference):
            if (tool.item_id, tool.text) not in seen:
                seen.add((tool.item_id, tool.text))
                out += [ev.about_text(tool), tool.text[:2000], ev.name_text(tool)]
        out.append(t.subquery)
    return out


def _read_doc(tool: ToolDoc, vec: dict[str, np.ndarray]) -> _Doc:
    doc_words, about_words = ev._doc_words(tool), ev._about_words(tool)
    return _Doc(
        about=vec[ev.about_text(tool)],
        text=vec[tool.text[:2000]],
        name=vec[ev.name_text(tool)],
        about_words=about_words,
        doc_words=doc_words,
        all_words=ev._all_words(tool),
        doc_syn=ev._doc_synonyms(tool),
        all_syn=ev._all_synonyms(tool),
        keyed=doc_words | about_words,
        objects=scope.objects(tool),
        returned=returned(tool),
        input_words=ev._input_words(tool),
    )
