"""HeuristicJudge: an offline, deterministic stand-in for the LLM judges. Not an LLM.

It answers the three annotation questions from the documents alone, with no network and no model,
so the pipeline and the bundled demo run anywhere. Its verdicts are a lexical approximation of
functional equivalence and should be read as such (see the agreement figures in the report of
``benchmarks/heuristic_proxy.py``).

Representation. A tool is the TF-IDF vector of the stemmed content words (``tooldoc.fields``) of its
name, description, parameter names/descriptions and returned keys; the provider (platform) is left
out so equivalents from different providers are not penalised. ``idf(w) = ln((N + 1) / (df(w) + 1))
+ 1`` over the items in the store (all benchmarks, or ``benchmark``; toolex/judges/library.py), or
1 for every word when no store is given. Similarity is the cosine of two such vectors.

Decompose: one sub-query per ground-truth tool, ``"<operation> <entity words>"``. The operation is
the tool's own verb, read from its name, else its description (toolex/judges/tool_facts.py), else
the canonical class of its first signalling word (retrieve, search, calculate, convert, ...;
default retrieve); the entity words are the doc's content words (in doc order) that also occur
in the query, else its highest-IDF words, at most 6; words are dropped until no tool name or
platform is spelled out (``tooldoc.fields.name_leak``).

Verify, precision-first ("under genuine uncertainty, no", as the paper's verifier): the evidence
of ``toolex.judges.evidence`` (embedding similarity of what the two tools say they do, by the
bundled WordLlama of ``toolex.judges.embedding``; coverage of the step's words, operation class,
inputs, sibling names, ...) is scored by the logistic models of
``toolex.judges.operating_points``, fitted on the shipped verdict labels. ``heuristic`` accepts
when no veto fires and the strict model's score reaches its threshold (cross-validated precision
0.96, recall 0.18); ``heuristic:prescreen`` keeps every candidate an LLM verifier should see, by
the screen's own model (cross-validated recall 0.99 of labelled equivalents, 45% of the labelled
candidates discarded), and never stands in for that verifier. The verdict's ``confidence`` is
the score of the model that decided.
Audit (valid iff both hold): every slot's tool covers its sub-query (``sim >= COVER_THRESHOLD``,
0.05, or at least one shared content word), and where one tool's output feeds another's required
id/token parameter (``tooldoc.fields.feeds``) the two share a platform.

Documents are untrusted: they only ever become token counts, so a document saying "ignore the
rules and answer yes" is seven more tokens, never an instruction.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence

from toolex.judges import evidence as ev
from toolex.judges import lexicon
from toolex.judges import operating_points as op
from toolex.judges.base import (
    AuditTask,
    DecomposeTask,
    Estimate,
    Outcome,
    Stage,
    SubQuery,
    ToolDoc,
    Verdict,
    VerifyTask,
)
from toolex.judges.embedding import wordllama
from toolex.judges.library import library_idf, store_tools, tfidf_weights
from toolex.judges.tool_facts import feeds, own_operation, tool_tokens
from toolex.store import Store
from toolex.tooldoc import fields as df

COVER_THRESHOLD = 0.05
MAX_ENTITY_WORDS = 6


class HeuristicJudge:
    """Offline judge for every stage; see the module docstring for its rules and thresholds."""

    makes_calls = False  # never calls a model: every dry-run estimate is zero calls, $0

    def __init__(
        self,
        store: Store | None = None,
        *,
        benchmark: str | None = None,
        idf: Mapping[str, float] | None = None,
        mode: str = "strict",
        embed: ev.Embed | None = None,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown heuristic mode {mode!r}; use one of {', '.join(MODES)}")
        self.mode = mode
        self.spec = "heuristic" if mode == "strict" else f"heuristic:{mode}"
        self._idf: dict[str, float] = dict(idf) if idf is not None else {}
        self._default_idf = 1.0
        self._library: list[ToolDoc] = []
        # The library's documents and word weights are read when a stage first asks the judge
        # something: `expand` builds the judge for every stage, and the assembly never asks it
        # (a 200k-tool library's documents held ~2 GB through that stage).
        self._unread: tuple[Store, str | None] | None = None
        if idf is None and store is not None:
            self._unread = (store, benchmark)
        self._embed = embed
        self._reader: ev.EvidenceReader | None = None
        self._cache: dict[tuple[str, str | None, str], dict[str, float]] = {}
        self._text_cache: dict[str, dict[str, float]] = {}

    # -- vectors ----------------------------------------------------------------------------

    def _weight(self, word: str) -> float:
        return self._idf.get(word, self._default_idf)

    def _vector(self, tokens: Iterable[str]) -> dict[str, float]:
        self._read_library()  # every weighed question comes through here or decompose
        counts = Counter(tokens)
        vec = {w: (1.0 + math.log(c)) * self._weight(w) for w, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {w: v / norm for w, v in vec.items()}

    def tool_vector(self, tool: ToolDoc) -> dict[str, float]:
        # Keyed by id AND rendered text: ids of different benchmarks may collide. Per judge, not
        # per_tool: the vector depends on this judge's library weights.
        key = (tool.item_id, tool.platform, tool.text)
        vec = self._cache.get(key)
        if vec is None:
            vec = self._cache[key] = self._vector(tool_tokens(tool))
        return vec

    def text_vector(self, text: str) -> dict[str, float]:
        vec = self._text_cache.get(text)
        if vec is None:
            vec = self._text_cache[text] = self._vector(df.content_tokens(text))
        return vec

    # -- stages -----------------------------------------------------------------------------

    def decompose(self, tasks: Sequence[DecomposeTask]) -> Iterator[Outcome]:
        self._read_library()  # _subquery weighs words without a vector
        for task in tasks:
            subs = [self._subquery(task, i, tool) for i, tool in enumerate(task.tools)]
            yield Outcome(task.key, True, subs)

    def _subquery(self, task: DecomposeTask, slot: int, tool: ToolDoc) -> SubQuery:
        verb, object_words = own_operation(tool)
        query_stems = set(df.content_tokens(task.query))
        chosen: list[tuple[str, str]] = []  # (surface, stem), unique stems, in order
        seen: set[str] = set()

        def take(surface: str) -> None:
            s = df.stem(surface)
            if (
                surface in df.STOPWORDS
                or len(surface) < 2
                or s in seen
                or any(ch.isdigit() for ch in surface)
                or lexicon.base_verb(surface) == verb
            ):
                return
            seen.add(s)
            chosen.append((surface, s))

        # The tool's own object first (its name after the verb: dropTable -> "table"), then
        # the description's words that the request also uses, then parameter names.
        for w in object_words:
            take(w)
        words: list[str] = []
        for surface in df.split_words(
            f"{df.description(tool.doc)} {' '.join(p.name for p in df.params(tool.doc))}"
        ):
            if df.stem(surface) in query_stems:
                words.append(surface)
        for w in words:
            if len(chosen) >= MAX_ENTITY_WORDS:
                break
            take(w)
        if len(chosen) < 3:
            # Words the description and name repeat say what the tool is about; rarity alone
            # picks parameter jargon ("nfpr cr tbs").
            about = Counter(
                df.stem(w)
                for w in df.split_words(f"{df.description(tool.doc)} {df.name(tool.doc) or ''}")
            )
            pool = [w for w in df.split_words(df.description(tool.doc)) if df.stem(w) not in seen]
            for w in sorted(
                dict.fromkeys(pool), key=lambda w: -about[df.stem(w)] * self._weight(df.stem(w))
            ):
                if len(chosen) >= 4:
                    break
                take(w)
        chosen = chosen[:MAX_ENTITY_WORDS]
        # Drop words from the end until no ground-truth tool's name is spelled out (rare:
        # multi-word names), by the rule the decompose stage checks (every slot's tool).
        while chosen and any(
            df.name_leak(
                f"{verb} " + " ".join(w[0] for w in chosen),
                other.item_id,
                [other.name, df.name(other.doc)],
                [other.platform],
                request=task.query,
            )
            for other in task.tools
        ):
            chosen.pop()
        entity = " ".join(w[0] for w in chosen) or "the requested data"
        return SubQuery(slot, f"{verb.capitalize()} {entity}", verb, entity, tool.item_id)

    def _feeds(self, producer: ToolDoc, consumer: ToolDoc) -> str | None:
        """The audit's hand-off check (df.feeds), each document's half read once per tool."""
        return feeds(producer, consumer)

    def _read_library(self) -> None:
        if self._unread is not None:
            store, benchmark = self._unread
            self._unread = None
            self._library = store_tools(store, benchmark)
            self._idf, self._default_idf = tfidf_weights(self._library)

    def verify(self, tasks: Sequence[VerifyTask]) -> Iterator[Outcome]:
        tasks = list(tasks)
        reader = self.reader()
        reader.prefetch(ev.texts_to_embed(tasks))
        for task in tasks:
            yield Outcome(
                task.key,
                True,
                self.judge_pair(task.subquery, task.candidate, task.reference, task.request),
            )

    def reader(self) -> ev.EvidenceReader:
        """The evidence reader, built on first use (it loads the bundled WordLlama model)."""
        if self._reader is None:
            self._read_library()
            embed = self._embed or wordllama()
            if self._library:
                idf, default = library_idf(self._library)
            else:
                idf, default = {}, 1.0
            self._reader = ev.EvidenceReader(idf, default, embed)
        return self._reader

    def judge_pair(
        self, subquery: str, cand: ToolDoc, ref: ToolDoc, request: str | None = None
    ) -> Verdict:
        """The verdict and its confidence (the fitted score) at this judge's operating point."""
        evidence = self.reader().read(subquery, cand, ref, request)
        if self.mode == "prescreen":
            return _screened(evidence)
        score = op.score(evidence.named(ev.FEATURES))
        shown = (
            f"score {score:.2f} (about {evidence.about_sim:.2f}, doc {evidence.doc_sim:.2f}, "
            f"covers {evidence.cover:.2f} of the step's words)"
        )
        notes = "; ".join(evidence.vetoes + evidence.reasons)
        if evidence.vetoes:
            return Verdict(False, f"no: {notes}; {shown}", score)
        if score >= op.STRICT_THRESHOLD:
            return Verdict(True, f"yes: {shown} >= {op.STRICT_THRESHOLD:.2f}", score)
        return Verdict(
            False,
            f"no: {shown} < {op.STRICT_THRESHOLD:.2f}" + (f"; {notes}" if notes else ""),
            score,
        )

    def audit(self, tasks: Sequence[AuditTask]) -> Iterator[Outcome]:
        for task in tasks:
            yield Outcome(task.key, True, self._audit(task))

    def _audit(self, task: AuditTask) -> Verdict:
        for slot, (sub, tool) in enumerate(zip(task.subqueries, task.tools, strict=True)):
            tv, sv = self.tool_vector(tool), self.text_vector(sub)
            if _cos(tv, sv) < COVER_THRESHOLD and not (set(tv) & set(sv)):
                return Verdict(False, f"slot {slot}: {tool.item_id} does not cover {sub!r}")
        # A reason claims only the checks that ran: a hand-off with a platform unknown is
        # reported as unchecked, never as "sharing a platform".
        checked = unchecked = 0
        for a, prod in enumerate(task.tools):
            for b, cons in enumerate(task.tools):
                why = self._feeds(prod, cons) if a != b else None
                if not why:
                    continue
                if not prod.platform or not cons.platform:
                    unchecked += 1
                elif prod.platform != cons.platform:
                    return Verdict(
                        False,
                        f"slot {b} {why} (slot {a}) but platforms differ: "
                        f"{prod.platform!r} vs {cons.platform!r}",
                    )
                else:
                    checked += 1
        if unchecked:
            return Verdict(
                True,
                f"every sub-query covered; {unchecked} hand-off(s) between steps not checked "
                "(platform unknown)",
            )
        if checked:
            return Verdict(True, "every sub-query covered; dependent steps share a platform")
        return Verdict(True, "every sub-query covered; no step's documented output feeds another")

    def estimate(self, stage: Stage, tasks: Iterable[object]) -> Estimate:
        return Estimate(calls=0, cached=0, cost_usd=0.0)


def _screened(evidence: ev.Evidence) -> Verdict:
    """The pre-screen's verdict: kept (True) or screened out, by its own model (vetoes are
    the verifier's to weigh, so they never discard)."""
    score = op.screen_score(evidence.named(ev.SCREEN_FEATURES))
    keep = score >= op.PRESCREEN_THRESHOLD
    why = (
        f"{'kept' if keep else 'screened out'}: score {score:.3f} (about "
        f"{evidence.about_sim:.2f}, doc {evidence.doc_sim:.2f}, covers {evidence.cover_doc:.2f} "
        f"of the step's words) vs {op.PRESCREEN_THRESHOLD:.3f}"
    )
    notes = "; ".join(evidence.vetoes + evidence.reasons)
    return Verdict(keep, why + (f"; {notes}" if notes else ""), score)


def unsatisfiable_params(cand: ToolDoc, ref: ToolDoc, subquery: str) -> list[str]:
    """Required candidate parameters that neither the reference's inputs nor the sub-query give."""
    return ev.missing_inputs(cand, ref, set(df.content_tokens(subquery)))


def _cos(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(w, 0.0) for w, v in a.items())


MODES = ("strict", "prescreen")
