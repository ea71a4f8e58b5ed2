"""The LLM judge: renders the stage prompts, runs them through the executor (or a batch API),
parses answers strictly, and turns them into Outcomes.

Each call names its answer's JSON schema (parse.verdict_schema / decomposition_schema) so the
client can ask for structured output; a rejected answer is retried with the problem named (see
toolex/llm/executor.py). The calls in flight adapt per stage (toolex/llm/limiter.py): one limiter
per stage lives as long as the judge, so what a stage learnt about the server carries over from
one chunk of tasks to the next.

Verdicts (verify, audit) ask for token log-probabilities where the API gives them: the verdict
word's probability is the verdict's confidence (toolex.judges.confidence).

Tasks whose rendered prompts are identical share one call (the ledger would serve the repeat
anyway; sharing also avoids paying twice within one run). ``Outcome.call_id`` is the ledger row
that produced the answer, ``Outcome.extra`` says whether it came from the ledger and after how
many attempts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from toolex.judges import confidence, parse
from toolex.judges.base import (
    AuditTask,
    DecomposeTask,
    Estimate,
    JudgeParts,
    Outcome,
    Outcomes,
    Stage,
    ToolDoc,
    VerifyTask,
)
from toolex.judges.prompts import boundary_for, fence, item_nouns, load_template, render
from toolex.llm.budget import Budget
from toolex.llm.calls import Call, Result, Spend
from toolex.llm.clients import ChatClient, Schema
from toolex.llm.config import LLMConfig
from toolex.llm.executor import Executor
from toolex.llm.ledger import Ledger, call_identity, input_hash
from toolex.llm.limiter import Limiter
from toolex.llm.logprobs import TOP_LOGPROBS
from toolex.llm.pricing import cost_usd, estimate_tokens
from toolex.llm.retry import Policy
from toolex.store import Store

# Expected answer lengths for --dry-run estimates (tokens): a verdict with a one-sentence reason,
# or per sub-query an object of four short fields.
ANSWER_TOKENS = {"verify": 60, "audit": 70, "decompose_per_slot": 50}
# Anthropic's own system prompt for tool use (what a forced answer tool costs per call, on top of
# the schema): 264-346 tokens by model in Anthropic's tool-use pricing notes.
TOOL_USE_TOKENS = 300
VERDICT = Schema("verdict", parse.verdict_schema())


@dataclass
class Prepared:
    task: Any
    system: str
    user: str
    input_hash: str
    parse: Callable[[str], Any]
    to_value: Callable[[Any], Any]
    schema: Schema = VERDICT
    logprobs: int = TOP_LOGPROBS  # verdicts: their word's probability is the confidence
    annotate: Callable[[Any, Any], Any] | None = confidence.from_tokens


def raw_doc(tool: ToolDoc) -> str:
    """A tool's full raw documentation, as loaded (the verify prompt shows all of it)."""
    return json.dumps(tool.doc, ensure_ascii=False, separators=(", ", ": "), default=str)


def _docs_block(b: str, label: str, docs: Sequence[ToolDoc], first: int) -> str:
    """Numbered, fenced documentation: ``<Label> <n>:`` then the doc in its data block."""
    return "\n\n".join(
        f"{label.capitalize()} {i}:\n{fence(b, f'{label.upper()} {i} DOCUMENTATION', t.text)}"
        for i, t in enumerate(docs, start=first)
    )


def render_decompose(task: DecomposeTask) -> tuple[str, str]:
    texts = [task.query, task.instruction or "", *(t.text for t in task.tools)]
    b = boundary_for(*texts)
    nouns = item_nouns(t.kind for t in task.tools)
    k = len(task.tools)
    return render(
        "decompose",
        boundary=b,
        k=str(k),
        k_minus_1=str(k - 1),
        query_block=fence(b, "REQUEST", task.query),
        instruction_block=fence(b, "INSTRUCTION", task.instruction)
        if task.instruction
        else "(none)",
        tools_block=_docs_block(b, nouns["noun"], task.tools, 0),
        **nouns,
    )


def render_verify(task: VerifyTask) -> tuple[str, str]:
    ref, cand = raw_doc(task.reference), raw_doc(task.candidate)
    # one token per (sub-query, reference): its candidates' prompts share a prefix to cache
    b = boundary_for(task.subquery, ref, avoid=[cand])
    return render(
        "verify",
        boundary=b,
        subquery_block=fence(b, "SUB-QUERY", task.subquery),
        reference_block=fence(b, "REFERENCE DOCUMENTATION", ref),
        candidate_block=fence(b, "CANDIDATE DOCUMENTATION", cand),
        **item_nouns([task.reference.kind, task.candidate.kind]),
    )


def render_audit(task: AuditTask) -> tuple[str, str]:
    checklist = "\n".join(f"{i + 1}. {s}" for i, s in enumerate(task.subqueries))
    texts = [
        task.query,
        task.instruction or "",
        checklist,
        *(t.text for t in task.tools),
        *(t.text for t in task.reference),
    ]
    b = boundary_for(*texts)
    nouns = item_nouns(t.kind for t in (*task.tools, *task.reference))
    reference = (
        _docs_block(b, f"reference {nouns['noun']}", task.reference, 1)
        if task.reference
        else "(not given: judge coverage of the checklist alone)"
    )
    return render(
        "audit",
        boundary=b,
        n_tools=str(len(task.tools)),
        n_reference=str(len(task.reference)),
        query_block=fence(b, "REQUEST", task.query),
        instruction_block=fence(b, "INSTRUCTION", task.instruction)
        if task.instruction
        else "(none)",
        checklist_block=fence(b, "CHECKLIST", checklist),
        reference_block=reference,
        tools_block=_docs_block(b, nouns["noun"], task.tools, 1),
        **nouns,
    )


def query_of(key: str) -> str:
    """The query part of a task key (``<query_id>/<slot>/<item_id>``, ``<query_id>/<combo>``,
    ``<query_id>``): what a capped run spreads its calls over. A query id holding "/" groups
    by its first part, which only coarsens the spreading."""
    return key.split("/", 1)[0]


RENDERERS: dict[str, Callable[[Any], tuple[str, str]]] = {
    "decompose": render_decompose,
    "verify": render_verify,
    "audit": render_audit,
}


class LLMJudge(JudgeParts):
    """A judge backed by one chat model (see toolex/judges/base.py for the contract)."""

    # what JudgeParts leaves None, this judge always has
    client: ChatClient
    config: LLMConfig
    spend: Spend
    policy: Policy

    def __init__(
        self,
        spec: str,
        client: ChatClient,
        store: Store,
        config: LLMConfig | None = None,
    ) -> None:
        self.spec, self.client, self.store = spec, client, store
        self.config = config or LLMConfig()
        self.client.start_at(self.config.structured)
        self.ledger = Ledger(store)
        self.spend = Spend()  # attempts and cost so far, for progress displays
        self.chunk_size = max(2048, 64 * self.config.max_in_flight)  # tasks rendered at once
        self.policy = Policy(
            max_in_flight=self.config.cap_for(),
            max_attempts=self.config.max_attempts,
            backoff_base_s=self.config.backoff_base_s,
            backoff_max_s=self.config.backoff_max_s,
            timeout_s=self.config.timeout_for(client.provider),
        )
        self.limiters: dict[str, Limiter] = {}  # per stage: decompose answers take longer
        self.budget: Budget | None = None  # a run's spending limit (toolex/llm/budget.py)

    # -- the contract --------------------------------------------------------------------------

    def decompose(self, tasks: Sequence[DecomposeTask]) -> Outcomes:
        return self._run("decompose", tasks)

    def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes:
        return self._run("verify", tasks)

    def audit(self, tasks: Sequence[AuditTask]) -> Outcomes:
        return self._run("audit", tasks)

    def estimate(self, stage: Stage, tasks: Iterable[object]) -> Estimate:
        calls, cached, prompt_toks, answer_toks = self.plan(stage, tasks)
        prices = [
            cost_usd(self.client.model, p, a, batch=self.config.batch)
            for p, a in zip(prompt_toks, answer_toks, strict=True)
        ]
        if not prices:
            total: float | None = 0.0  # nothing to call costs nothing, whatever the model
        elif any(c is None for c in prices):
            total = None  # unknown price: said as unknown, not guessed
        else:
            total = round(sum(p for p in prices if p is not None), 6)
        return Estimate(calls=calls, cached=cached, cost_usd=total)

    def plan(self, stage: Stage, tasks: Iterable[object]) -> tuple[int, int, list[int], list[int]]:
        """(calls to make, tasks the ledger answers, per-call prompt and answer token guesses).

        Tokens are estimated as characters / 4 of the rendered prompt; answers by ANSWER_TOKENS.
        """
        cached = 0
        todo: dict[str, tuple[int, int]] = {}  # input hash -> (prompt, answer) token guesses
        tasks = list(tasks)
        for start in range(0, len(tasks), self.chunk_size):  # bounded memory, like a run
            prepared = [self._prepare(stage, t) for t in tasks[start : start + self.chunk_size]]
            hits = self.ledger.hits(p.input_hash for p in prepared)
            for p in prepared:
                if p.input_hash in hits:
                    cached += 1
                elif p.input_hash not in todo:
                    answer = (
                        ANSWER_TOKENS["decompose_per_slot"] * len(p.task.tools)
                        if stage == "decompose"
                        else ANSWER_TOKENS[stage]
                    )
                    todo[p.input_hash] = (
                        estimate_tokens(p.system) + estimate_tokens(p.user) + self._extra(p),
                        answer,
                    )
        prompt_toks = [p for p, _ in todo.values()]
        answer_toks = [a for _, a in todo.values()]
        return len(todo), cached, prompt_toks, answer_toks

    # -- machinery -----------------------------------------------------------------------------

    def prompt_version(self, stage: str) -> str:
        return load_template(stage).version

    def limiter(self, stage: str) -> Limiter:
        """The stage's in-flight limiter; local servers are watched for queueing."""
        if stage not in self.limiters:
            self.limiters[stage] = Limiter(
                self.config.cap_for(),
                self.config.start_for(self.client.provider),
                watch_latency=self.client.provider == "compat",
                timeout_s=self.policy.timeout_s,
                floor=self.config.slots or 1,
            )
        return self.limiters[stage]

    def _extra(self, p: Prepared) -> int:
        """Prompt tokens structured output adds: the schema, and Anthropic's tool-use prompt."""
        if self.config.structured == "none":
            return 0
        tool = TOOL_USE_TOKENS if self.client.provider == "anthropic" else 0
        return estimate_tokens(json.dumps(p.schema.body)) + tool

    def _prepare(self, stage: str, task: Any) -> Prepared:
        if stage not in RENDERERS:
            raise ValueError(f"unknown stage {stage!r}")
        system, user = RENDERERS[stage](task)
        # The judge's identity: a compat server by its model (a moved port resumes, issue
        # 28), a hosted provider behind another endpoint with that endpoint (issue 10).
        identity = call_identity(self.client)
        h = input_hash(identity, self.client.model, self.prompt_version(stage), system, user)
        if stage == "decompose":
            tools, request = task.tools, task.query
            return Prepared(
                task,
                system,
                user,
                h,
                lambda text: parse.parse_decomposition(text, tools, request),
                lambda parsed: parse.subqueries_value(parsed, tools),
                Schema("decomposition", parse.decomposition_schema(len(tools))),
                logprobs=0,
                annotate=None,
            )
        return Prepared(task, system, user, h, parse.parse_verdict, parse.verdict_value)

    def _run(self, stage: str, tasks: Sequence[Any]) -> Outcomes:
        # Direct calls go chunk by chunk so a stage of 100k verifications never holds every
        # rendered prompt in memory; a repeat in a later chunk is then a ledger hit. A batch
        # run takes everything at once (it splits into provider-sized batches itself).
        tasks = list(tasks)
        size = len(tasks) if self.config.batch else self.chunk_size
        for start in range(0, len(tasks), max(1, size)):
            yield from self._run_chunk(stage, tasks[start : start + size])

    def _run_chunk(self, stage: str, tasks: Sequence[Any]) -> Outcomes:
        prepared = [self._prepare(stage, t) for t in tasks]
        groups: dict[str, list[Prepared]] = {}
        for p in prepared:
            groups.setdefault(p.input_hash, []).append(p)
        calls = [
            Call(
                g[0].task.key,
                h,
                g[0].system,
                g[0].user,
                g[0].parse,
                g[0].schema,
                logprobs=g[0].logprobs,
                annotate=g[0].annotate,
                group=query_of(g[0].task.key),
            )
            for h, g in groups.items()
        ]
        for result in self._results(stage, calls):
            for p in groups[result.call.input_hash]:
                yield self._outcome(p, result)

    def _results(self, stage: str, calls: list[Call]) -> Iterator[Result]:
        executor = Executor(
            self.client,
            self.ledger,
            stage=stage,
            judge=self.spec,
            prompt_version=self.prompt_version(stage),
            policy=self.policy,
            spend=self.spend,
            limiter=self.limiter(stage),
            budget=self.budget,
        )  # direct calls pay full price even in a batch run (its fallbacks); batch.py halves
        if self.config.batch:
            from toolex.llm.batch import run_batch

            return run_batch(
                self.client, self.ledger, executor, calls, poll_s=self.config.batch_poll_s
            )
        return executor.run(calls)

    @staticmethod
    def _outcome(p: Prepared, result: Result) -> Outcome:
        extra = {"cached": result.cached, "attempts": result.attempts}
        if not result.ok:
            return Outcome(
                p.task.key, False, error=result.error, call_id=result.call_id, extra=extra
            )
        return Outcome(
            p.task.key, True, value=p.to_value(result.parsed), call_id=result.call_id, extra=extra
        )
