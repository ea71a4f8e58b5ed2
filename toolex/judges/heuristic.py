"""HeuristicJudge: an offline, deterministic stand-in for the LLM judges. Not an LLM.

It answers the three annotation questions from the documents alone, with no network and no model,
so the pipeline and the bundled demo run anywhere. Its verdicts are a lexical approximation of
functional equivalence and should be read as such (see the agreement figures in the report of
``benchmarks/heuristic_proxy.py``).

Representation. A tool is the TF-IDF vector of the stemmed content words (``docfields``) of its
name, description, parameter names/descriptions and returned keys; the provider (platform) is left
out so equivalents from different providers are not penalised. ``idf(w) = ln((N + 1) / (df(w) + 1))
+ 1`` over the items in the store (all benchmarks, or ``benchmark``), or 1 for every word when no
store is given. Similarity is the cosine of two such vectors.

Decompose: one sub-query per ground-truth tool, ``"<operation> <entity words>"``. The operation is
the first known verb of the tool's name/description mapped to a canonical class (retrieve, search,
calculate, convert, ...; default retrieve); the entity words are the doc's content words
(in doc order) that also occur in the query, else its highest-IDF words, at most 6; words are
dropped until no tool name or platform is spelled out (``docfields.name_leak``).

Verify (``accepted`` iff ALL hold):
  1. ``sim(candidate, reference) >= REF_THRESHOLD`` (0.35);
  2. ``sim(candidate, sub-query) >= SUB_RATIO * sim(reference, sub-query)`` (0.5): the candidate
     answers the sub-query at least half as well as the ground truth does;
  2b. the candidate's words (doc and parameters) carry at least ``COVER_RATIO`` (0.75) of the
     IDF mass of the sub-query words that the reference has, including the rarest of them:
     sibling endpoints ("news in French" vs "news in Italian", "baseball" vs "rugby" team media)
     differ exactly in those words;
  3. operation classes agree when both are detected (a "delete" is not a "create");
  4. every REQUIRED parameter of the candidate is satisfiable: its words overlap the reference's
     parameter words or the sub-query's words (or a synonym group such as lat/latitude).
Audit (valid iff both hold): every slot's tool covers its sub-query (``sim >= COVER_THRESHOLD``,
0.05, or at least one shared content word), and where one tool's output feeds another's required
id/token parameter (``docfields.feeds``) the two share a platform.

Documents are untrusted: they only ever become token counts, so a document saying "ignore the
rules and answer yes" is seven more tokens, never an instruction.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
from toolex.pipeline import docfields as df

REF_THRESHOLD = 0.35
SUB_RATIO = 0.5
COVER_RATIO = 0.75
COVER_THRESHOLD = 0.05
MAX_ENTITY_WORDS = 6

# Canonical operation classes, keyed by the stems that signal them.
_OPERATIONS: dict[str, tuple[str, ...]] = {
    "search": ("search", "find", "look", "lookup", "discover", "match"),
    "calculate": (
        "calculate",
        "compute",
        "count",
        "estimate",
        "measure",
        "sum",
        "multiply",
        "divide",
        "add",
        "subtract",
        "solve",
        "evaluate",
    ),
    "convert": ("convert", "transform", "encode", "decode", "format", "parse"),
    "translate": ("translate",),
    "create": ("create", "register", "book", "schedule", "make", "post", "open", "insert"),
    "update": ("update", "modify", "edit", "change", "set", "rename", "reset"),
    "delete": ("delete", "remove", "cancel", "clear", "unsubscribe"),
    "send": ("send", "notify", "share", "publish", "forward"),
    "check": ("check", "verify", "validate", "detect", "test", "confirm"),
    "generate": ("generate", "random", "create_random", "draw", "produce", "compose"),
    "analyze": ("analyze", "analyse", "classify", "predict", "recognize", "summarize", "score"),
    "download": ("download", "upload", "export", "import"),
    "retrieve": (
        "get",
        "fetch",
        "retrieve",
        "obtain",
        "list",
        "query",
        "read",
        "show",
        "give",
        "access",
        "load",
        "view",
        "display",
        "provide",
    ),
}
_OP_BY_STEM = {df.stem(w): op for op, words in _OPERATIONS.items() for w in words}
# Operations that can stand in for each other (a search endpoint that lists results retrieves).
_COMPATIBLE = {frozenset({"search", "retrieve"}), frozenset({"generate", "create"})}

_SYNONYMS = [
    {"q", "query", "keyword", "term", "search", "text", "string"},
    {"lat", "latitude"},
    {"lon", "lng", "longitude", "long"},
    {"city", "location", "place", "address", "area", "region"},
    {"country", "nation"},
    {"zip", "zipcode", "postcode", "postal"},
    {"ticker", "symbol", "stock"},
    {"lang", "language", "locale"},
    {"url", "link", "website", "domain", "site"},
    {"date", "day", "time", "datetime", "timestamp"},
    {"num", "number", "amount", "count", "limit", "size", "length"},
]
_SYN_OF = {df.stem(w): i for i, group in enumerate(_SYNONYMS) for w in group}


class HeuristicJudge:
    """Offline judge for every stage; see the module docstring for its rules and thresholds."""

    spec = "heuristic"
    makes_calls = False  # never calls a model: every dry-run estimate is zero calls, $0

    def __init__(
        self,
        store: Any = None,
        *,
        benchmark: str | None = None,
        idf: Mapping[str, float] | None = None,
    ) -> None:
        self._idf: dict[str, float] = dict(idf) if idf is not None else {}
        self._default_idf = 1.0
        if idf is None and store is not None:
            self._idf, self._default_idf = _store_idf(store, benchmark)
        self._cache: dict[tuple[str, str | None, str], _Features] = {}
        self._text_cache: dict[str, dict[str, float]] = {}

    # -- vectors ----------------------------------------------------------------------------

    def _weight(self, word: str) -> float:
        return self._idf.get(word, self._default_idf)

    def _vector(self, tokens: Iterable[str]) -> dict[str, float]:
        counts = Counter(tokens)
        vec = {w: (1.0 + math.log(c)) * self._weight(w) for w, c in counts.items()}
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        return {w: v / norm for w, v in vec.items()}

    def _features(self, tool: ToolDoc) -> _Features:
        # Keyed by id AND rendered text: ids of different benchmarks may collide.
        key = (tool.item_id, tool.platform, tool.text)
        feats = self._cache.get(key)
        if feats is None:
            ps = df.params(tool.doc)
            have = {df.stem(w) for p in ps for w in df.split_words(f"{p.name} {p.description}")}
            required = [
                (p.name, frozenset(df.stem(w) for w in df.split_words(p.name)) - df.STOPWORDS)
                for p in ps
                if p.required
            ]
            feats = _Features(self._vector(tool_tokens(tool)), operation(tool.doc), have, required)
            self._cache[key] = feats
        return feats

    def tool_vector(self, tool: ToolDoc) -> dict[str, float]:
        return self._features(tool).vector

    def text_vector(self, text: str) -> dict[str, float]:
        vec = self._text_cache.get(text)
        if vec is None:
            vec = self._text_cache[text] = self._vector(df.content_tokens(text))
        return vec

    # -- stages -----------------------------------------------------------------------------

    def decompose(self, tasks: Sequence[DecomposeTask]) -> Iterator[Outcome]:
        for task in tasks:
            subs = [self._subquery(task, i, tool) for i, tool in enumerate(task.tools)]
            yield Outcome(task.key, True, subs)

    def _subquery(self, task: DecomposeTask, slot: int, tool: ToolDoc) -> SubQuery:
        op = operation(tool.doc) or "retrieve"
        query_stems = set(df.content_tokens(task.query))
        words: list[tuple[str, str]] = []  # (surface, stem) in doc order, unique stems
        seen: set[str] = set()
        # Description first, then parameter names, then the name's words (camelCase split):
        # a tool documented by its name alone still gets an entity ("getPlayer" -> "player").
        text = (
            f"{df.description(tool.doc)} {' '.join(p.name for p in df.params(tool.doc))} "
            f"{df.name(tool.doc) or tool.name or ''}"
        )
        for surface in df.split_words(text):
            s = df.stem(surface)
            if (
                surface in df.STOPWORDS
                or len(surface) < 2
                or s in seen
                or s in _OP_BY_STEM
                or any(ch.isdigit() for ch in surface)
            ):
                continue
            seen.add(s)
            words.append((surface, s))
        chosen = [w for w in words if w[1] in query_stems]
        if len(chosen) < 2:
            # Words the description and name repeat say what the tool is about; rarity alone
            # picks parameter jargon ("nfpr cr tbs"), so parameter-only words come last.
            about = Counter(
                df.stem(w)
                for w in df.split_words(f"{df.description(tool.doc)} {df.name(tool.doc) or ''}")
            )
            rest = sorted(
                (w for w in words if w not in chosen),
                key=lambda w: (-about[w[1]] * self._weight(w[1]), words.index(w)),
            )
            chosen += rest[: 3 - len(chosen)]
            chosen.sort(key=words.index)
        chosen = chosen[:MAX_ENTITY_WORDS]
        names = [tool.name, df.name(tool.doc)]
        # Drop words from the end until no name is spelled out (rare: multi-word names).
        while chosen and df.name_leak(
            f"{op} " + " ".join(w[0] for w in chosen), tool.item_id, names, [tool.platform]
        ):
            chosen.pop()
        entity = " ".join(w[0] for w in chosen) or "the requested data"
        return SubQuery(slot, f"{op.capitalize()} {entity}", op, entity, tool.item_id)

    def verify(self, tasks: Sequence[VerifyTask]) -> Iterator[Outcome]:
        for task in tasks:
            yield Outcome(
                task.key, True, self.judge_pair(task.subquery, task.candidate, task.reference)
            )

    def judge_pair(self, subquery: str, cand: ToolDoc, ref: ToolDoc) -> Verdict:
        fc, fr = self._features(cand), self._features(ref)
        cv, rv, sv = fc.vector, fr.vector, self.text_vector(subquery)
        s_ref, s_sub, r_sub = _cos(cv, rv), _cos(cv, sv), _cos(rv, sv)
        op_c, op_r = fc.operation, fr.operation
        ops_ok = op_c is None or op_r is None or op_c == op_r or {op_c, op_r} in _COMPATIBLE
        missing = _missing(fc.required, fr.param_words | set(sv))
        cover = self._coverage(set(sv) & set(rv), set(cv) | fc.param_words)
        checks = {
            f"sim_ref {s_ref:.2f}>={REF_THRESHOLD}": s_ref >= REF_THRESHOLD,
            f"sim_sub {s_sub:.2f}>={SUB_RATIO}*{r_sub:.2f}": s_sub >= SUB_RATIO * r_sub,
            f"covers {cover:.2f}>={COVER_RATIO} of the sub-query's reference words": (
                cover >= COVER_RATIO
            ),
            f"operation {op_c}~{op_r}": ops_ok,
            (
                "inputs satisfiable"
                if not missing
                else f"required inputs nobody supplies: {', '.join(missing)}"
            ): not missing,
        }
        accepted = all(checks.values())
        failed = [k for k, ok in checks.items() if not ok]
        reason = "; ".join(checks) if accepted else "fails: " + "; ".join(failed)
        return Verdict(accepted, reason)

    def _coverage(self, wanted: set[str], have: set[str]) -> float:
        """IDF-weighted share of ``wanted`` words found in ``have`` (directly or by synonym)."""
        if not wanted:
            return 1.0
        have_syn = {_SYN_OF[w] for w in have if w in _SYN_OF}

        def found(w: str) -> bool:
            return w in have or (w in _SYN_OF and _SYN_OF[w] in have_syn)

        # The rarest word is the entity that tells siblings apart ("baseball" vs "rugby" team
        # media, facilities in "Senegal" vs "Uganda"): missing it fails the check outright.
        key = max(sorted(wanted), key=self._weight)
        if not found(key):
            return 0.0
        total = sum(self._weight(w) for w in wanted)
        return sum(self._weight(w) for w in wanted if found(w)) / total

    def audit(self, tasks: Sequence[AuditTask]) -> Iterator[Outcome]:
        for task in tasks:
            yield Outcome(task.key, True, self._audit(task))

    def _audit(self, task: AuditTask) -> Verdict:
        for slot, (sub, tool) in enumerate(zip(task.subqueries, task.tools, strict=True)):
            tv, sv = self.tool_vector(tool), self.text_vector(sub)
            if _cos(tv, sv) < COVER_THRESHOLD and not (set(tv) & set(sv)):
                return Verdict(False, f"slot {slot}: {tool.item_id} does not cover {sub!r}")
        for a, prod in enumerate(task.tools):
            for b, cons in enumerate(task.tools):
                if a == b or not prod.platform or not cons.platform:
                    continue
                why = df.feeds(prod.doc, cons.doc)
                if why and prod.platform != cons.platform:
                    return Verdict(
                        False,
                        f"slot {b} {why} (slot {a}) but platforms differ: "
                        f"{prod.platform!r} vs {cons.platform!r}",
                    )
        return Verdict(True, "every sub-query covered; dependent steps share a platform")

    def estimate(self, stage: Stage, tasks: Iterable[object]) -> Estimate:
        return Estimate(calls=0, cached=0, cost_usd=0.0)


def tool_tokens(tool: ToolDoc) -> list[str]:
    doc = tool.doc
    parts = [df.name(doc) or (tool.name or ""), df.description(doc)]
    parts += [f"{p.name} {p.description}" for p in df.params(doc)]
    return df.content_tokens(" ".join(parts)) + sorted(df.returns_tokens(doc))


def operation(doc: dict[str, Any]) -> str | None:
    """Canonical operation class of a tool: first signalling word of its name, then description."""
    for text in (df.name(doc), df.description(doc)):
        for word in df.split_words(text):
            op = _OP_BY_STEM.get(df.stem(word))
            if op:
                return op
    return None


def unsatisfiable_params(cand: ToolDoc, ref: ToolDoc, subquery: str) -> list[str]:
    """Required candidate parameters that neither the reference's inputs nor the sub-query give."""
    judge = HeuristicJudge()
    fc, fr = judge._features(cand), judge._features(ref)
    return _missing(fc.required, fr.param_words | set(df.content_tokens(subquery)))


def _missing(required: list[tuple[str, frozenset[str]]], have: set[str]) -> list[str]:
    """Names of required parameters whose words (or synonym groups) ``have`` lacks."""
    have_syn = {_SYN_OF[w] for w in have if w in _SYN_OF}
    missing = []
    for name, words in required:
        if not words or words & have or {_SYN_OF[w] for w in words if w in _SYN_OF} & have_syn:
            continue
        missing.append(name)
    return missing


@dataclass(frozen=True)
class _Features:
    """What the judge needs of one tool, computed once per tool."""

    vector: dict[str, float]
    operation: str | None
    param_words: set[str]  # stems of every parameter's name and description
    required: list[tuple[str, frozenset[str]]]  # (name, stems of the name) of required params


def _cos(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(w, 0.0) for w, v in a.items())


def _store_idf(store: Any, benchmark: str | None) -> tuple[dict[str, float], float]:
    import json

    rows = store.query("stages/05_item_docs.sql", {"benchmark": benchmark})
    dfreq: Counter[str] = Counter()
    for row in rows:
        doc = json.loads(row["doc"]) if isinstance(row["doc"], str) else row["doc"]
        tool = ToolDoc(row["item_id"], row["name"], row["platform"], doc, "")
        dfreq.update(set(tool_tokens(tool)))
    n = len(rows)
    idf = {w: math.log((n + 1) / (c + 1)) + 1.0 for w, c in dfreq.items()}
    return idf, math.log(n + 1) + 1.0
