"""What an offline verifier can read off two tool documents and a sub-query, as numbers.

The offline judge (``toolex.judges.heuristic``) decides "can the candidate stand in for the
reference on this step?" from this evidence alone: no network, no LLM. Each field is one
observation a careful annotator also makes (docs/verdict-guideline.md), measured so it can be
weighed and its weight fitted on labelled verdicts (benchmarks/fit_offline_judge.py):

- ``about_sim``: cosine of the embeddings (WordLlama, bundled) of the two tools' "name.
  description" texts: do they say they do the same thing?
- ``doc_sim``: the same over the whole rendered documentation (parameters, returns).
- ``sub_sim``: cosine of the sub-query's embedding and the candidate's "name. description".
- ``cover``: IDF-weighted share of the sub-query words that the reference's doc contains which
  the candidate's doc also contains: the words that say what the step is about.
- ``overlap``: IDF-weighted Jaccard of the two docs' name + description words.
- ``same_operation``: both tools' own operation verbs (first verb of name, then description)
  fall in one operation class, or one is unknown.
- ``inputs_ok``, ``inputs_overlap``: every required candidate input is supplied by the
  sub-query or the reference's own inputs; how much the two tools' required inputs overlap.
- ``sibling``: the two names share their object but each has a qualifier the other lacks (C vs
  C#, closing vs opening, simple vs compound interest).
- The pre-screen's readings (``SCREEN_FEATURES``; the strict judge keeps the ones above, as
  fitted): ``cover_doc``, ``cover`` over the whole rendered documentation (every field: a model
  card's domain, a function's signature), not only name, description, parameters and returns;
  ``inputs_ok_loose``, ``inputs_ok`` where a required input spelled like a reference parameter
  up to case and punctuation (``colisId`` / ``colisid``) counts as supplied; ``sibling_loose``,
  ``sibling`` with checkpoint names exempt (toolex.judges.names.checkpoints).
- Vetoes, each a reason a person says "no" whatever the similarity: a required identifier
  (``*_id``, ``*_code``, a token) that nobody supplies, and a request that names the reference's
  platform or model id, which the candidate is not.

Documents are untrusted: they only ever become token counts and embedding inputs, never
instructions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from toolex.judges.base import ToolDoc, VerifyTask, per_tool
from toolex.judges.lexicon import COMPATIBLE, SYNONYM_OF, operation_of
from toolex.judges.names import checkpoints, named_reference, sibling
from toolex.judges.tool_facts import about_words, described_words, returned
from toolex.tooldoc import fields as df

Embed = Callable[[Sequence[str]], np.ndarray]  # texts -> L2-normalised rows


@dataclass(frozen=True)
class Evidence:
    about_sim: float
    doc_sim: float
    sub_sim: float
    cover: float
    overlap: float
    same_operation: bool
    name_sim: float
    inputs_ok: bool
    sibling: bool
    returns_overlap: float
    inputs_overlap: float
    cover_doc: float
    inputs_ok_loose: bool
    sibling_loose: bool
    vetoes: tuple[str, ...] = field(default=())
    reasons: tuple[str, ...] = field(default=())

    def vector(self, names: Sequence[str] | None = None) -> list[float]:
        """The features ``names`` (default: the strict model's ``FEATURES``), in that order."""
        return [float(getattr(self, name)) for name in (names or FEATURES)]

    def named(self, names: Sequence[str]) -> dict[str, float]:
        """The features ``names`` by name, as a model scores them."""
        return {name: float(getattr(self, name)) for name in names}


FEATURES = (
    "about_sim",
    "doc_sim",
    "sub_sim",
    "cover",
    "overlap",
    "same_operation",
    "name_sim",
    "inputs_ok",
    "sibling",
    "returns_overlap",
    "inputs_overlap",
)
# The pre-screen's model reads the whole documentation and spells names loosely: fitted for
# recall (benchmarks/fit_offline_judge.py), where the strict model is fitted for precision.
SCREEN_FEATURES = tuple(
    {"cover": "cover_doc", "inputs_ok": "inputs_ok_loose", "sibling": "sibling_loose"}.get(f, f)
    for f in FEATURES
)


def about_text(tool: ToolDoc) -> str:
    """``"<name>. <description>"``: what a tool says it does, without its interface."""
    return f"{df.name(tool.doc) or tool.name or ''}. {df.description(tool.doc)}"[:1000]


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

    # -- cached parts ---------------------------------------------------------------------

    def weight(self, word: str) -> float:
        return self._idf.get(word, self._default_idf)

    def prefetch(self, texts: Iterable[str]) -> None:
        """Embed every text not seen yet in one batch (the verify stage hands over a batch)."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._vec))
        if todo:
            for text, row in zip(todo, self._embed(todo), strict=True):
                self._vec[text] = np.asarray(row, dtype=np.float32)

    def _emb(self, text: str) -> np.ndarray:
        if text not in self._vec:
            self.prefetch([text])
        return self._vec[text]

    # -- evidence -------------------------------------------------------------------------

    def read(
        self, subquery: str, cand: ToolDoc, ref: ToolDoc, request: str | None = None
    ) -> Evidence:
        about_c, about_r = about_text(cand), about_text(ref)
        ec, er = self._emb(about_c), self._emb(about_r)
        dc, dr = self._emb(cand.text[:2000]), self._emb(ref.text[:2000])
        es = self._emb(subquery)
        sub_words = set(df.content_tokens(subquery))
        ref_words, cand_words = _doc_words(ref), _doc_words(cand)
        key = sub_words & (ref_words | _about_words(ref))
        vetoes, reasons = [], []
        missing = missing_inputs(cand, ref, sub_words)
        handles = [m for m in missing if _is_handle(m)]
        if handles:  # an id or key the request cannot give: an extra lookup step, a "no"
            vetoes.append(f"required identifiers nobody supplies: {', '.join(handles)}")
        elif missing:
            reasons.append(f"required inputs nobody supplies: {', '.join(missing)}")
        sib = sibling(cand, ref)
        if sib:
            reasons.append(sib)
        spelled = _spellings(ref)
        if request:
            named_ = named_reference(request, cand, ref)
            if named_:
                vetoes.append(named_)
        name_c, name_r = df.name(cand.doc) or cand.name or "", df.name(ref.doc) or ref.name or ""
        rc, rr = returned(cand), returned(ref)
        return Evidence(
            about_sim=float(ec @ er),
            doc_sim=float(dc @ dr),
            sub_sim=float(es @ ec),
            cover=self._cover(key, cand_words, _doc_synonyms(cand)),
            overlap=self._jaccard(_about_words(ref), _about_words(cand)),
            same_operation=same_operation(cand, ref),
            name_sim=float(
                self._emb(" ".join(df.split_words(name_c)))
                @ self._emb(" ".join(df.split_words(name_r)))
            ),
            inputs_ok=not missing,
            sibling=bool(sib),
            returns_overlap=self._jaccard(rc, rr) if rc and rr else 0.5,
            inputs_overlap=self._jaccard(_input_words(cand), _input_words(ref)),
            cover_doc=self._cover(
                sub_words & _all_words(ref), _all_words(cand), _all_synonyms(cand)
            ),
            inputs_ok_loose=all(_spelling(m) in spelled for m in missing),
            sibling_loose=bool(sib) and not checkpoints(cand, ref),
            vetoes=tuple(vetoes),
            reasons=tuple(reasons),
        )

    def _cover(self, wanted: set[str], have: frozenset[str], have_syn: frozenset[int]) -> float:
        """The weighted share of ``wanted`` that ``have`` holds, directly or through a synonym
        group (``have_syn``: the groups of ``have``'s words)."""
        if not wanted:
            return 1.0
        found = [w for w in wanted if w in have or SYNONYM_OF.get(w, -1) in have_syn]
        return sum(self.weight(w) for w in found) / sum(self.weight(w) for w in wanted)

    def _jaccard(self, a: frozenset[str], b: frozenset[str]) -> float:
        union = a | b
        if not union:
            return 0.0
        return sum(self.weight(w) for w in a & b) / sum(self.weight(w) for w in union)


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
    """The synonym groups of ``_doc_words`` (a few hundred words a document)."""
    return frozenset(SYNONYM_OF[w] for w in _doc_words(tool) if w in SYNONYM_OF)


@per_tool
def _all_synonyms(tool: ToolDoc) -> frozenset[int]:
    return frozenset(SYNONYM_OF[w] for w in _all_words(tool) if w in SYNONYM_OF)


# -- observations that are rules, not weights -----------------------------------------------


@per_tool
def operation(tool: ToolDoc) -> str | None:
    """The tool's own operation class: first signalling word of its name, then description."""
    return operation_of(df.name(tool.doc) or tool.name or "", df.description(tool.doc))


def same_operation(cand: ToolDoc, ref: ToolDoc) -> bool:
    a, b = operation(cand), operation(ref)
    return a is None or b is None or a == b or frozenset({a, b}) in COMPATIBLE


def missing_inputs(cand: ToolDoc, ref: ToolDoc, sub_words: set[str]) -> list[str]:
    """Required candidate parameters whose words neither the sub-query nor the reference's own
    parameters carry (directly or through a synonym group such as lat/latitude)."""
    have = set(sub_words) | _param_stems(ref)
    have_syn = {SYNONYM_OF[w] for w in have if w in SYNONYM_OF}
    out = []
    for name, words in _required_words(cand):
        if (
            not words
            or words & have
            or {SYNONYM_OF[w] for w in words if w in SYNONYM_OF} & have_syn
        ):
            continue
        out.append(name)
    return out


@per_tool
def _params(tool: ToolDoc) -> tuple[df.Param, ...]:
    return tuple(df.params(tool.doc))


@per_tool
def _param_stems(tool: ToolDoc) -> frozenset[str]:
    """Stems of every word of the parameters' names and descriptions."""
    return frozenset(
        df.stem(w) for p in _params(tool) for w in df.split_words(f"{p.name} {p.description}")
    )


@per_tool
def _required_words(tool: ToolDoc) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each required parameter's name and the stems of its name's content words."""
    return tuple(
        (p.name, frozenset(df.stem(w) for w in df.split_words(p.name)) - df.STOPWORDS)
        for p in _params(tool)
        if p.required
    )


@per_tool
def _spellings(tool: ToolDoc) -> frozenset[str]:
    return frozenset(_spelling(p.name) for p in _params(tool))


def _is_handle(param_name: str) -> bool:
    """An input that names a record another system issued (``station_code``, ``user_id``)."""
    words = df.split_words(param_name)
    return df.is_id_like(param_name) or (bool(words) and words[-1] in {"code", "key"})


def _spelling(name: str) -> str:
    """A parameter name up to case and punctuation: ``colisId``, ``colis_id``, ``colisid``."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@per_tool
def _input_words(tool: ToolDoc) -> frozenset[str]:
    """Stems of the required parameters' names, a synonym group standing for its members."""
    out = set()
    for p in _params(tool):
        if p.required:
            for w in df.split_words(p.name):
                s = df.stem(w)
                out.add(f"syn{SYNONYM_OF[s]}" if s in SYNONYM_OF else s)
    return frozenset(out - df.STOPWORDS)
