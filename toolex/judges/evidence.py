"""What an offline verifier can read off two tool documents, a sub-query and the request.

The offline judge (``toolex.judges.heuristic``) decides "can the candidate stand in for the
reference on this step?" from this evidence alone: no network, no LLM. Two kinds:

**Vetoes**, each a reason the verdict guideline (docs/verdict-guideline.md) says "no" whatever the
similarity, read by rules about function, not names:

- opposite operations, or a conversion the other way round (``toolex.judges.operations``);
- a platform, site or place the step names that only the reference serves, and sibling objects
  (C / C#), a superset excepted (``toolex.judges.scope``);
- an id the request writes out that the candidate's platform cannot read, a required id nobody
  holds, a setting the step asks for that the candidate cannot take (``toolex.judges.inputs``).

**Measurements**, each one observation an annotator also makes:

- ``about_sim``: cosine of the embeddings (WordLlama, bundled, unless the user gives a local
  model) of the two tools' "name. description": do they say they do the same thing?
- ``doc_sim``: the same over the whole rendered documentation (parameters, returns);
- ``sub_sim``: the sub-query against the candidate's "name. description";
- ``object_match``: how far the two names (a model card's task) are about the same object, once
  operation verbs, backends in brackets and generic words are set aside (``about_sim`` when a
  name names no object);
- ``cover``: IDF-weighted share of the step's words found in the reference's documentation that
  the candidate's documentation also holds (``cover_doc``: over every rendered field);
- ``overlap``, ``returns_overlap``, ``inputs_overlap``, ``name_sim``, ``same_operation``,
  ``inputs_ok``: the two documents' words, outputs, required inputs, names and operation classes.

How they are weighed is ``toolex.judges.operating_points``. Every measurement is a number: an
empty text embeds to NaN in WordLlama (it divides by a zero norm), and reads as 0 here. Documents
are untrusted: they only ever become words and embedding inputs, never instructions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from toolex.judges import checks, inputs, scope
from toolex.judges.base import ToolDoc, VerifyTask, per_tool
from toolex.judges.checks import Finding
from toolex.judges.lexicon import COMPATIBLE, SYNONYM_OF, operation_of
from toolex.judges.tool_facts import about_words, described_words, returned
from toolex.tooldoc import fields as df

Embed = Callable[[Sequence[str]], np.ndarray]  # texts -> L2-normalised rows


@dataclass(frozen=True)
class Evidence:
    about_sim: float
    doc_sim: float
    sub_sim: float
    cover: float
    cover_doc: float
    object_match: float
    overlap: float
    same_operation: bool
    name_sim: float
    inputs_ok: bool
    returns_overlap: float
    inputs_overlap: float
    findings: tuple[Finding, ...] = field(default=())

    @property
    def vetoes(self) -> tuple[str, ...]:
        """The failed points, as a verdict says them ("outputs: the step asks for ...")."""
        return tuple(str(f) for f in self.findings)

    def named(self, names: Sequence[str]) -> dict[str, float]:
        """The measurements ``names`` by name, as a score reads them."""
        return {name: float(getattr(self, name)) for name in names}


MEASUREMENTS = (
    "about_sim",
    "doc_sim",
    "sub_sim",
    "cover",
    "cover_doc",
    "object_match",
    "overlap",
    "same_operation",
    "name_sim",
    "inputs_ok",
    "returns_overlap",
    "inputs_overlap",
)


def about_text(tool: ToolDoc) -> str:
    """``"<name>. <description>"``: what a tool says it does, without its interface."""
    return f"{df.name(tool.doc) or tool.name or ''}. {df.description(tool.doc)}"[:1000]


def name_text(tool: ToolDoc) -> str:
    """The words of a tool's name, space-separated: what ``name_sim`` embeds."""
    return " ".join(df.split_words(df.name(tool.doc) or tool.name or ""))


def texts_to_embed(tasks: Sequence[VerifyTask]) -> list[str]:
    """Every text ``EvidenceReader.read`` embeds for ``tasks``, for one ``prefetch`` batch."""
    out: list[str] = []
    for t in tasks:
        for tool in (t.candidate, t.reference):
            name = df.name(tool.doc) or tool.name or ""
            out += [about_text(tool), tool.text[:2000], " ".join(df.split_words(name))]
        out.append(t.subquery)
    return out


class EvidenceReader:
    """Computes ``Evidence`` for (sub-query, candidate, reference[, request]) with cached parts
    (embeddings here; what depends on one tool's documentation only, per tool: ``per_tool``).

    ``idf`` weighs words by how rare they are in the library (a word every tool has says little);
    ``embed`` maps texts to normalised vectors (WordLlama by default, via the caller).
    """

    def __init__(self, idf: Mapping[str, float], default_idf: float, embed: Embed) -> None:
        self._idf = idf
        self._default_idf = default_idf
        self._embed = embed
        self._vec: dict[str, np.ndarray] = {}

    def weight(self, word: str) -> float:
        return self._idf.get(word, self._default_idf)

    def prefetch(self, texts: Iterable[str]) -> None:
        """Embed every text not seen yet in one batch (the verify stage hands over a batch)."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._vec))
        if todo:
            for text, row in zip(todo, self._embed(todo), strict=True):
                self._vec[text] = np.asarray(row, dtype=np.float32)

    def _cos(self, a: str, b: str) -> float:
        for text in (a, b):
            if text not in self._vec:
                self.prefetch([text])
        value = float(self._vec[a] @ self._vec[b])
        return value if math.isfinite(value) else 0.0

    def read(
        self, subquery: str, cand: ToolDoc, ref: ToolDoc, request: str | None = None
    ) -> Evidence:
        about_c, about_r = about_text(cand), about_text(ref)
        step_words = set(df.content_tokens(subquery))
        said = step_words | set(df.content_tokens(request or ""))
        failed = checks.findings(subquery, cand, ref, request)
        key = step_words & (_doc_words(ref) | _about_words(ref))
        name_c, name_r = df.name(cand.doc) or cand.name or "", df.name(ref.doc) or ref.name or ""
        rc, rr = returned(cand), returned(ref)
        about_sim = self._cos(about_c, about_r)
        objects_c, objects_r = scope.objects(cand), scope.objects(ref)
        return Evidence(
            about_sim=about_sim,
            doc_sim=self._cos(cand.text[:2000], ref.text[:2000]),
            sub_sim=self._cos(subquery, about_c),
            cover=self._cover(key, _doc_words(cand), _doc_synonyms(cand)),
            cover_doc=self._cover(
                step_words & _all_words(ref), _all_words(cand), _all_synonyms(cand)
            ),
            # a name that says nothing of an object (``c2f``, ``forecast``): what the two tools
            # say they do stands in, rather than counting the silence as a mismatch
            object_match=_jaccard(objects_c, objects_r) if objects_c and objects_r else about_sim,
            overlap=self._jaccard(_about_words(ref), _about_words(cand)),
            same_operation=same_operation(cand, ref),
            name_sim=self._cos(" ".join(df.split_words(name_c)), " ".join(df.split_words(name_r))),
            inputs_ok=not inputs.missing_inputs(cand, ref, said, request),
            returns_overlap=self._jaccard(rc, rr) if rc and rr else 0.5,
            inputs_overlap=self._jaccard(_input_words(cand), _input_words(ref)),
            findings=failed,
        )

    def _cover(self, wanted: set[str], have: frozenset[str], have_syn: frozenset[int]) -> float:
        """The weighted share of ``wanted`` that ``have`` holds, directly or through a synonym
        group (``have_syn``: the groups of ``have``'s words)."""
        if not wanted:  # the step asks nothing the reference documents: nothing to miss
            return 1.0
        found = [w for w in wanted if w in have or SYNONYM_OF.get(w, -1) in have_syn]
        # fsum: a sum over a set follows its strings' hashes, which change from process to
        # process (PYTHONHASHSEED), and a plain float sum's last bit with them; fsum's is exact
        return math.fsum(map(self.weight, found)) / math.fsum(map(self.weight, wanted))

    def _jaccard(self, a: frozenset[str], b: frozenset[str]) -> float:
        union = a | b
        if not union:
            return 0.0
        return math.fsum(map(self.weight, a & b)) / math.fsum(map(self.weight, union))  # see _cover


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


# -- what a pair reads of one tool's documentation, worked out once per tool ---------------

_about_words = per_tool(about_words)


@per_tool
def _doc_words(tool: ToolDoc) -> frozenset[str]:
    return frozenset(described_words(tool)) | returned(tool)


@per_tool
def _all_words(tool: ToolDoc) -> frozenset[str]:
    """``_doc_words`` and every word of the rendered documentation: fields no parser reads as
    name, description, parameter or return (a model card's domain, a signature)."""
    return _doc_words(tool) | frozenset(df.content_tokens(tool.text))


@per_tool
def _doc_synonyms(tool: ToolDoc) -> frozenset[int]:
    return frozenset(SYNONYM_OF[w] for w in _doc_words(tool) if w in SYNONYM_OF)


@per_tool
def _all_synonyms(tool: ToolDoc) -> frozenset[int]:
    return frozenset(SYNONYM_OF[w] for w in _all_words(tool) if w in SYNONYM_OF)


@per_tool
def operation(tool: ToolDoc) -> str | None:
    """The tool's own operation class: first signalling word of its name, then description."""
    return operation_of(df.name(tool.doc) or tool.name or "", df.description(tool.doc))


def same_operation(cand: ToolDoc, ref: ToolDoc) -> bool:
    a, b = operation(cand), operation(ref)
    return a is None or b is None or a == b or frozenset({a, b}) in COMPATIBLE


@per_tool
def _input_words(tool: ToolDoc) -> frozenset[str]:
    """Stems of the required parameters' names, a synonym group standing for its members."""
    out = set()
    for p in inputs.required_params(tool):
        for w in df.split_words(p.name):
            s = df.stem(w)
            out.add(f"syn{SYNONYM_OF[s]}" if s in SYNONYM_OF else s)
    return frozenset(out - df.STOPWORDS)
