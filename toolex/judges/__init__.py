"""Judges answer the three annotation questions (decompose, verify, audit).

``make_judge(spec, ...)`` turns a spec string into a judge: ``heuristic`` (offline),
``openai:<model>``, ``anthropic:<model>``, ``compat:<base_url>#<model>`` (vLLM, Ollama,
llama.cpp server). See toolex/judges/base.py for the contract.

A judge's identity (``judge.spec``: the ``judge`` column of every table, ``--dry-run``, exports)
never holds a credential: a compat base URL's ``user:password@`` becomes ``***@`` there
(toolex.llm.keys), and error messages about a spec redact it the same way.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from toolex.errors import InputError
from toolex.judges.base import Judge
from toolex.llm.keys import redact_url, shown

if TYPE_CHECKING:
    from toolex.store import Store

__all__ = [
    "DEFAULT_JUDGE",
    "JUDGE_STAGES",
    "judges_for",
    "make_judge",
    "parse_spec",
    "public_spec",
]

# The stages a judge answers, and who answers a stage nobody configured: the offline judge, so
# `toolex expand` runs without a key or a network.
JUDGE_STAGES: tuple[str, ...] = ("decompose", "verify", "audit")  # the values of base.Stage
DEFAULT_JUDGE = "heuristic"


def parse_spec(spec: str) -> tuple[str, str | None, str | None]:
    """(provider, model, base_url) of a judge spec; errors say what a valid spec looks like."""
    spec = spec.strip()
    if spec == "heuristic":
        return "heuristic", None, None
    provider, sep, rest = spec.partition(":")
    if provider == "heuristic":
        from toolex.judges.heuristic import MODES

        if rest not in MODES:
            raise InputError(
                f"unknown heuristic mode in {shown(spec)}; use heuristic (strict) or "
                "heuristic:prescreen",
                field="judge",
            )
        return "heuristic", rest, None
    if not sep or not rest:
        raise InputError(
            f"unknown judge {shown(spec)}; use heuristic, openai:<model>, anthropic:<model> or "
            "compat:<base_url>#<model>",
            field="judge",
        )
    if provider in ("openai", "anthropic"):
        return provider, rest, None
    if provider == "compat":
        base_url, hash_, model = rest.rpartition("#")
        if not hash_ or not base_url or not model:
            raise InputError(
                f"judge {shown(spec)}: an OpenAI-compatible judge is compat:<base_url>#<model>, "
                "e.g. compat:http://127.0.0.1:8000/v1#qwen2.5-7b-instruct",
                field="judge",
            )
        return "compat", model, base_url
    raise InputError(
        f"unknown judge provider {shown(provider)} in {shown(spec)}; use openai, anthropic or "
        "compat",
        field="judge",
    )


def judge_identity(spec: str) -> str:
    """What makes two specs one judge: an OpenAI-compatible server is named by the model it
    serves (``compat:<model>``), so a server restarted on another port is the same judge, as
    the call ledger counts it (toolex.llm.ledger.call_identity); other specs are themselves."""
    try:
        provider, model, _ = parse_spec(spec)
    except InputError:  # a stored spec this version no longer reads: compared as written
        return spec.strip()
    return f"compat:{model}" if provider == "compat" else spec.strip()


def public_spec(spec: str) -> str:
    """``spec`` as stored and shown: a compat base URL's credentials redacted."""
    provider, model, base_url = parse_spec(spec)
    if provider == "compat" and base_url is not None:
        return f"compat:{redact_url(base_url)}#{model}"
    return spec.strip()


def make_judge(spec: str, store: Store | None = None, config: Any = None, **opts: Any) -> Judge:
    """Build the judge named by ``spec``.

    ``config`` is a ``toolex.llm.config.LLMConfig`` (or a ``toolex.pipeline.config.ToolexConfig``,
    whose ``llm`` part is used); keyword ``opts`` override its fields (``max_in_flight``,
    ``timeout_s``, ``max_attempts``, ``backoff_base_s``, ``batch``...) and ``base_url`` points a
    provider at another server. For ``heuristic`` the options are passed to the heuristic judge
    (``embedding="fastembed:<model>@<folder>"``: the embedding model it reads with, else the
    config file's ``[judges] embedding``, else WordLlama; toolex.judges.embedding).
    """
    provider, model, base_url = parse_spec(spec)
    if provider == "heuristic":
        from toolex.judges.heuristic import HeuristicJudge

        return HeuristicJudge(store=store, mode=model or "strict", **opts)
    if store is None:
        raise ValueError("an LLM judge needs the store (its call ledger lives there)")
    from toolex.judges.llm import LLMJudge
    from toolex.llm.clients import make_client
    from toolex.llm.config import LLMConfig

    assert model is not None  # parse_spec gives every LLM provider a model
    llm = getattr(config, "llm", config) or LLMConfig()
    base_url = opts.pop("base_url", None) or base_url or getattr(llm, f"{provider}_base_url", None)
    known = {f.name for f in dataclasses.fields(LLMConfig)}
    unknown = set(opts) - known
    if unknown:
        raise TypeError(f"unknown LLM judge option(s) {sorted(unknown)}; known: {sorted(known)}")
    llm = dataclasses.replace(llm, **opts)
    client = make_client(
        provider, model, base_url=base_url, timeout_s=llm.timeout_s, max_tokens=llm.max_tokens
    )
    return LLMJudge(public_spec(spec), client, store, llm)


def judges_for(
    store: Store, *, judge: str | None = None, config: Any = None, benchmark: str | None = None
) -> dict[str, Judge]:
    """One judge per stage: ``judge`` for every stage when given, else the config file's
    ``[judges]`` (a ``ToolexConfig``), else :data:`DEFAULT_JUDGE`.

    Stages naming the same spec share one judge (one client, one connection pool, one cache).
    LLM judges take their call settings from ``config``; the heuristic judge takes its IDF from
    ``benchmark``'s library only, so its verdicts do not depend on what else the store holds.
    """
    specs = getattr(config, "judges", None) or {}
    chosen = {stage: judge or specs.get(stage, DEFAULT_JUDGE) for stage in JUDGE_STAGES}
    built: dict[str, Judge] = {}
    for spec in dict.fromkeys(chosen.values()):
        if spec == DEFAULT_JUDGE:
            built[spec] = make_judge(spec, store, benchmark=benchmark)
        else:
            built[spec] = make_judge(spec, store, config)
    return {stage: built[spec] for stage, spec in chosen.items()}
