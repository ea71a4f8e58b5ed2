"""The contract between the pipeline stages and the judges that answer them.

Stages hand a judge a batch of tasks and consume outcomes as they complete, so an LLM judge can
keep many calls in flight (and serve repeats from the call ledger) while the heuristic judge
simply answers in order. A judge never writes pipeline tables; stages do, outcome by outcome, so an
interrupted stage resumes where it stopped.

Tool documentation inside tasks is untrusted text: judges must treat it as data only.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Generator, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, wraps
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

if TYPE_CHECKING:  # types only: a judge that calls no model never loads the LLM client
    from toolex.llm.budget import Budget
    from toolex.llm.calls import Spend
    from toolex.llm.clients import ChatClient
    from toolex.llm.config import LLMConfig
    from toolex.llm.retry import Policy

Stage = Literal["decompose", "verify", "audit"]


@dataclass(frozen=True)
class ToolDoc:
    item_id: str
    name: str | None
    platform: str | None
    doc: dict[str, Any]  # raw documentation, as loaded
    text: str  # toolex.tooldoc.render.render_doc rendering
    kind: str = "tool"  # items.kind: tool | skill (the prompts name it)

    def __getstate__(self) -> dict[str, object]:
        """The fields, without the values ``per_tool`` keeps beside them (a pickled or copied
        ToolDoc is the document, not the judge's memos)."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith(_MEMO)}


T = TypeVar("T")
_PER_TOOL_LIMIT = 1 << 15  # entries per memoised function: a few libraries' worth
_MEMO = "memo:"  # what the keys of values ``per_tool`` keeps in a ToolDoc's __dict__ start with
_NONE = object()
# The ToolDocs that keep values (weakly: the values go with their document), so that no more
# than _PER_TOOL_LIMIT documents keep them at once, as the memos are bounded.
_HOLDERS: list[weakref.ref[ToolDoc]] = []


def _held(tool: ToolDoc) -> dict[str, object]:
    """``tool.__dict__``, where ``per_tool`` keeps its values, the tool counted among the
    holders (every holder's values dropped once they reach the limit)."""
    own = tool.__dict__
    if _MEMO not in own:
        if len(_HOLDERS) >= _PER_TOOL_LIMIT:
            forget_kept()
        own[_MEMO] = True
        _HOLDERS.append(weakref.ref(tool))
    return own


def forget_kept() -> None:
    """Drop the values ``per_tool`` keeps in ToolDocs (its memos keep theirs)."""
    for ref in _HOLDERS:
        tool = ref()
        if tool is not None:
            own = tool.__dict__
            for key in [k for k in own if k.startswith(_MEMO)]:
                del own[key]
    _HOLDERS.clear()


def per_tool(fn: Callable[[ToolDoc], T]) -> Callable[[ToolDoc], T]:
    """Memoise a pure function of one tool's documentation, keyed by item id and rendered text:
    the offline judge reads the same few thousand documents once per pair, tens of thousands
    of pairs per expansion. ``text`` is the rendering of ``doc``, so the key stands for the
    documentation (the evidence reader's word caches use the same key). Results are shared:
    the function must return something nobody changes (a frozenset, a tuple, a string)."""
    # Keyed by item id, the text kept beside the value and compared on a hit (by identity
    # first: one ToolDoc per item is shared by every task naming it). A key of (id, text) hashed
    # a new tuple on each of the ~40 lookups a pair makes.
    memo: dict[str, tuple[str, T]] = {}
    # Each value is also kept in the ToolDoc's own __dict__, under a key no field can have: a
    # pair then finds its ~30 values in its two documents' own dicts, where they sit together,
    # rather than in as many memos of thousands of entries each (36% of a pair's time went to
    # these lookups once every document was read: a cache miss each).
    slot = f"{_MEMO}{fn.__module__}.{fn.__qualname__}"

    @wraps(fn)
    def cached(tool: ToolDoc) -> T:
        kept = tool.__dict__.get(slot, _NONE)  # not try/except: a miss raising costs ~1 µs
        if kept is not _NONE:
            return kept  # type: ignore[no-any-return]
        hit = memo.get(tool.item_id)
        if hit is not None and (hit[0] is tool.text or hit[0] == tool.text):
            out = hit[1]
        else:
            if len(memo) >= _PER_TOOL_LIMIT:
                memo.clear()
            out = fn(tool)
            memo[tool.item_id] = (tool.text, out)
        _held(tool)[slot] = out
        return out

    return cached


S = TypeVar("S", bound=Hashable)


def per_step_tool(fn: Callable[[S, ToolDoc], T]) -> Callable[[S, ToolDoc], T]:
    """Memoise a pure function of one step and one tool's documentation (what the step asks of
    the reference): a verify batch asks it of ~20 candidates per step, each against the same
    reference. Keyed by the step (a frozen value, its fields' hashes cached) and item id, the
    text compared on a hit as ``per_tool`` does; the result is shared, so nobody changes it."""
    memo: dict[tuple[S, str], tuple[str, T]] = {}

    @wraps(fn)
    def cached(step: S, tool: ToolDoc) -> T:
        key = (step, tool.item_id)
        hit = memo.get(key)
        if hit is not None and (hit[0] is tool.text or hit[0] == tool.text):
            return hit[1]
        if len(memo) >= _PER_TOOL_LIMIT:
            memo.clear()
        out = fn(step, tool)
        memo[key] = (tool.text, out)
        return out

    return cached


@dataclass(frozen=True)
class DecomposeTask:
    key: str  # "<query_id>"
    query: str
    instruction: str | None
    tools: tuple[ToolDoc, ...]  # ground-truth combination, in slot order


@dataclass(frozen=True)
class SubQuery:
    slot: int
    text: str
    operation: str | None
    entity: str | None
    item_id: str  # ground-truth tool answered by this slot


@dataclass(frozen=True)
class VerifyTask:
    key: str  # "<query_id>/<slot>/<item_id>"
    subquery: str
    candidate: ToolDoc
    reference: ToolDoc
    request: str | None = None  # the whole user request, for judges that read it (offline)


@dataclass(frozen=True)
class Handoff:
    """An explicit call-chain edge of a query (``dependency_edges``): the consumer step takes
    ``value`` (a field name; '' = the result) from what the producer step returns."""

    producer: int  # slot
    consumer: int  # slot
    value: str = ""


@dataclass(frozen=True)
class AuditTask:
    key: str  # "<query_id>/<combo_id>"
    query: str
    instruction: str | None
    subqueries: tuple[str, ...]  # the checklist, slot order
    tools: tuple[ToolDoc, ...]  # the combination, slot order
    # the ground-truth combination (slot order), shown to the audit as a reference; () = none
    reference: tuple[ToolDoc, ...] = ()
    handoffs: tuple[Handoff, ...] = ()  # the query's explicit edges, loaded or imported


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    reason: str
    confidence: float | None = None  # P(yes) as the judge sees it, when it can say


@dataclass
class Outcome:
    """The answer to one task. ``ok=False`` is a recorded failure, never a silent 'no'."""

    key: str
    ok: bool
    value: list[SubQuery] | Verdict | None = None
    error: str | None = None
    call_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# What a stage method returns: a generator, because the stage closes it when it stops early
# (toolex.pipeline.stage.run_judged), so the LLM judge's executor records the attempts still in
# flight as this stage's calls. A plain iterator could not be closed.
Outcomes = Generator[Outcome, None, None]


@dataclass(frozen=True)
class Estimate:
    calls: int  # calls that would be made (ledger hits excluded)
    cached: int  # tasks the ledger would answer
    cost_usd: float | None  # None when the price of the model is unknown


class Judge(Protocol):
    """What a stage needs from a judge: every attribute the pipeline reads, declared here so
    that the type checker sees a renamed one (``JudgeParts`` gives a judge the defaults)."""

    spec: str  # e.g. "heuristic", "openai:gpt-4o-mini"
    # The run's spending limit, set by the pipeline (toolex.pipeline.runner.spend_within); only
    # a judge with a client honours it.
    budget: Budget | None

    @property
    def makes_calls(self) -> bool:
        """False: the judge never calls a model, so a dry run prices it at $0."""
        ...

    @property
    def embedding(self) -> str | None:
        """The embedding model the verifier reads with, recorded with the verify stage."""
        ...

    @property
    def spend(self) -> Spend | None:
        """Attempts and cost so far (progress bars, stage rows); None: the outcomes say."""
        ...

    @property
    def client(self) -> ChatClient | None:
        """The model it calls (its ``model`` is priced for a budget); None: calls none."""
        ...

    @property
    def policy(self) -> Policy | None:
        """Its call settings (the per-attempt timeout of a slow-server note)."""
        ...

    @property
    def config(self) -> LLMConfig | None:
        """Its LLM settings (``batch``: calls go through a provider's batch API)."""
        ...

    def decompose(self, tasks: Sequence[DecomposeTask]) -> Outcomes: ...

    def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes: ...

    def audit(self, tasks: Sequence[AuditTask]) -> Outcomes: ...

    def estimate(self, stage: Stage, tasks: Iterable[object]) -> Estimate: ...


class JudgeParts:
    """The defaults of the attributes of :class:`Judge` beyond its stage methods: a judge that
    calls no model (and a stand-in in a test) inherits these and sets what it has."""

    makes_calls: bool = True
    embedding: str | None = None
    budget: Budget | None = None
    spend: Spend | None = None
    client: ChatClient | None = None
    policy: Policy | None = None
    config: LLMConfig | None = None


def answers(judge: Judge, stage: str, tasks: Sequence[Any]) -> Outcomes:
    """``judge.<stage>(tasks)``: the stage method by its name, a clear error for another."""
    if stage == "decompose":
        return judge.decompose(tasks)
    if stage == "verify":
        return judge.verify(tasks)
    if stage == "audit":
        return judge.audit(tasks)
    raise ValueError(f"no judged stage {stage!r}; the stages are decompose, verify and audit")


def tool_doc(
    item_id: str,
    name: str | None,
    platform: str | None,
    doc: Any,
    text: str | None,
    kind: str | None = None,
) -> ToolDoc:
    """A ToolDoc from an ``items`` row (``doc`` as stored JSON text or already parsed): the one
    way stages and the label tools turn rows into what a judge reads."""
    raw = _parse(doc) if isinstance(doc, str) else (doc or {})
    return ToolDoc(item_id, name, platform, raw, text or "", kind or "tool")


@lru_cache(maxsize=16384)
def _parse(doc: str) -> dict[str, Any]:
    # A candidate's doc recurs across sub-queries; parse it once (judges only read docs).
    parsed: dict[str, Any] = json.loads(doc)
    return parsed
