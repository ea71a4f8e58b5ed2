"""The configuration file of `toolex expand` (TOML): judges per stage, LLM calls, expansion.

Example (``toolex.toml``)::

    [judges]
    decompose = "openai:gpt-4o"
    verify = "openai:gpt-4o-mini"
    audit = "anthropic:claude-3-5-sonnet-20241022"
    # optional: the embedding model the offline judge (heuristic, heuristic:prescreen) reads
    # with, a local folder read offline; default: the bundled WordLlama (toolex.judges.embedding)
    embedding = "fastembed:sentence-transformers/all-MiniLM-L6-v2@models/all-MiniLM-L6-v2-onnx"

    [llm]
    max_in_flight = 16     # calls in flight at once
    timeout_s = 60         # per call
    max_attempts = 5       # per task: transient errors and malformed answers both count
    backoff_base_s = 1.0   # first retry waits ~this long, doubling, with jitter
    backoff_max_s = 60.0
    batch = false          # use the providers' batch APIs (half price, hours of latency)
    openai_base_url = "..."     # optional; the SDKs also read OPENAI_BASE_URL / ANTHROPIC_BASE_URL
    anthropic_base_url = "..."

    [expand]               # defaults: toolex.pipeline.settings
    depth = 20             # candidates retrieved per sub-query
    retriever = "bm25"
    rendering = "default"  # documentation rendering the candidates are searched in
    audit_cap = 20         # opt-in: audit only the best 20 per query by RRF (default: all)

    [prices."qwen2.5-72b-instruct"]   # USD per million tokens; wins over toolex/llm/pricing.py
    input = 0.0                       # e.g. a server of your own
    output = 0.0

API keys are never read from this file: they come from OPENAI_API_KEY, ANTHROPIC_API_KEY and
TOOLEX_COMPAT_API_KEY only. A key-like entry in the file is an error, so a key pasted there is
caught before the file is shared.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, get_type_hints

from toolex.errors import InputError
from toolex.judges import DEFAULT_JUDGE, JUDGE_STAGES
from toolex.judges import embedding as judge_embedding
from toolex.llm import pricing
from toolex.llm.config import LLMConfig
from toolex.llm.keys import looks_like_key, redact_text
from toolex.pipeline import settings
from toolex.pipeline.runner import Settings

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

D = TypeVar("D", bound="DataclassInstance")  # a config section: LLMConfig, ExpandConfig
_SECRET = re.compile(r"(^|_)(api_?key|key|secret|token|password)$")


@dataclass
class ExpandConfig:
    depth: int = settings.CANDIDATES_PER_SUBQUERY
    audit_cap: int | None = settings.AUDIT_CAP  # None (absent from the file) = audit all
    retriever: str = settings.CANDIDATE_RETRIEVER
    rendering: str = settings.RENDERING


@dataclass
class ToolexConfig:
    judges: dict[str, str] = field(
        default_factory=lambda: dict.fromkeys(JUDGE_STAGES, DEFAULT_JUDGE)
    )
    llm: LLMConfig = field(default_factory=LLMConfig)
    expand: ExpandConfig = field(default_factory=ExpandConfig)
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)  # model -> (in, out)
    embedding: str | None = None  # [judges] embedding: the offline judge's (None: WordLlama)


@dataclass(frozen=True)
class Overrides:
    """The settings a run was given (`toolex expand`'s options, ``toolex.expand_settings``'
    keywords). Retriever, depth, audit cap and rendering given (not None) win over the config
    file's ``[expand]``; the settings the file has no key for (scope, platform rule, the verify
    stage's prescreen, reuse and order) are taken as given, their defaults
    toolex.pipeline.settings' too."""

    retriever: str | None = None
    depth: int | None = None
    audit_cap: int | None = None
    scope: str = settings.SCOPE
    platform_rule: str = settings.PLATFORM_RULE
    rendering: str | None = None
    prescreen: str = settings.PRESCREEN
    reuse: str | None = settings.REUSE
    order: str = settings.ORDER


def expand_settings(config: ToolexConfig | None = None, given: Overrides | None = None) -> Settings:
    """The pipeline settings of one run: each value ``given`` wins over the config file's
    ``[expand]``, which wins over the defaults of toolex.pipeline.settings (:class:`Overrides`
    says which the file can set)."""
    file = config.expand if config is not None else ExpandConfig()
    given = given or Overrides()
    return Settings(
        retriever=given.retriever or file.retriever or settings.CANDIDATE_RETRIEVER,
        depth=given.depth or file.depth,
        scope=given.scope,
        rendering=given.rendering or file.rendering or settings.RENDERING,
        audit_cap=given.audit_cap if given.audit_cap is not None else file.audit_cap,
        platform_rule=given.platform_rule,
        prescreen=given.prescreen,
        reuse=given.reuse,
        order=given.order,
    )


def _no_key(value: object, path: str, field: str) -> None:
    """A value shaped like an API key, pasted into the wrong field, is refused before anything
    runs or prints it (toolex.llm.keys; issue 10)."""
    if isinstance(value, str) and (looks_like_key(value) or redact_text(value) != value):
        raise InputError(
            "this value holds an API key or a credential (not shown); keys are read from the "
            "environment only (OPENAI_API_KEY, ANTHROPIC_API_KEY, TOOLEX_COMPAT_API_KEY)",
            path=path,
            field=field,
        )


def _section(cls: type[D], raw: Mapping[str, object], path: str, name: str) -> D:
    known = {f.name: f for f in fields(cls)}
    values = {}
    for key, value in raw.items():
        if _SECRET.search(key.lower()):
            raise InputError(
                "API keys are read from the environment only (OPENAI_API_KEY, "
                "ANTHROPIC_API_KEY, TOOLEX_COMPAT_API_KEY); remove it from the file",
                path=path,
                field=f"{name}.{key}",
            )
        if key not in known:
            raise InputError(
                f"unknown setting (known: {', '.join(known)})", path=path, field=f"{name}.{key}"
            )
        _no_key(value, path, f"{name}.{key}")
        default = getattr(cls(), key)
        expected = (
            type(default) if default is not None else _optional_type(get_type_hints(cls)[key])
        )
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise InputError(
                f"expected {expected.__name__}, got {type(value).__name__}",
                path=path,
                field=f"{name}.{key}",
            )
        if isinstance(value, int | float) and not isinstance(value, bool) and value <= 0:
            raise InputError("must be positive", path=path, field=f"{name}.{key}")
        values[key] = value
    return cls(**values)


def _optional_type(hint: object) -> type:
    """``int | None`` -> int: what a setting whose default is None must be when given."""
    given = [t for t in getattr(hint, "__args__", (hint,)) if t is not type(None)]
    return given[0] if len(given) == 1 and isinstance(given[0], type) else str


def load_config(path: str | Path) -> ToolexConfig:
    """Read and validate a config file; errors name the file and the setting."""
    path = str(path)
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise InputError("config file not found", path=path) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", path=path) from None
    unknown = set(raw) - {"judges", "llm", "expand", "prices"}
    if unknown:
        raise InputError(
            f"unknown section(s) {sorted(unknown)}; known: judges, llm, expand, prices", path=path
        )
    judges = dict.fromkeys(JUDGE_STAGES, DEFAULT_JUDGE)
    embedding = None
    for stage, spec in raw.get("judges", {}).items():
        if stage == "embedding":
            if not isinstance(spec, str) or not spec.strip():
                raise InputError(
                    "expected an embedding spec string (wordllama or fastembed:<model>@<folder>)",
                    path=path,
                    field="judges.embedding",
                )
            _no_key(spec, path, "judges.embedding")
            embedding = judge_embedding.checked(spec, path=path)
            continue
        if stage not in JUDGE_STAGES:
            raise InputError(
                f"unknown stage (known: {', '.join(JUDGE_STAGES)}; and embedding)",
                path=path,
                field=f"judges.{stage}",
            )
        if not isinstance(spec, str) or not spec.strip():
            raise InputError("expected a judge spec string", path=path, field=f"judges.{stage}")
        _no_key(spec, path, f"judges.{stage}")
        judges[stage] = spec.strip()
    config = ToolexConfig(
        judges=judges,
        llm=_section(LLMConfig, raw.get("llm", {}), path, "llm"),
        expand=_section(ExpandConfig, raw.get("expand", {}), path, "expand"),
        prices=_prices(raw.get("prices", {}), path),
        embedding=embedding,
    )
    # Every cost this process computes (ledger rows, dry runs, budgets) uses the file's prices,
    # and every offline judge it builds reads with the file's embedding: both are one per
    # process, so the last config loaded decides.
    pricing.set_overrides(config.prices)
    judge_embedding.choose(config.embedding)
    return config


def _prices(raw: Mapping[str, object], path: str) -> dict[str, tuple[float, float]]:
    """``[prices."model"] input = ..., output = ...`` (USD per million tokens) as model ->
    (input, output); zero is a price (a server of your own), a negative or missing one is not."""
    out: dict[str, tuple[float, float]] = {}
    for model, entry in raw.items():
        where = f"prices.{model}"
        if not isinstance(entry, dict):
            raise InputError(
                f'expected a table: [prices."{model}"] input = ..., output = ... (USD per '
                "million tokens)",
                path=path,
                field=where,
            )
        unknown = set(entry) - {"input", "output"}
        if unknown:
            raise InputError(
                f"unknown setting(s) {sorted(unknown)} (known: input, output)",
                path=path,
                field=where,
            )
        rates = []
        for key in ("input", "output"):
            value = entry.get(key)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise InputError(
                    "expected a price >= 0 in USD per million tokens",
                    path=path,
                    field=f"{where}.{key}",
                )
            rates.append(float(value))
        out[model] = (rates[0], rates[1])
    return out
