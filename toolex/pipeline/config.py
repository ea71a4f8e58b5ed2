"""The configuration file of `toolex expand` (TOML): judges per stage, LLM calls, expansion.

Example (``toolex.toml``)::

    [judges]
    decompose = "openai:gpt-4o"
    verify = "openai:gpt-4o-mini"
    audit = "anthropic:claude-3-5-sonnet-20241022"

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
    audit_cap = 20         # combinations audited per query, best RRF first
    retriever = "bm25"

API keys are never read from this file: they come from OPENAI_API_KEY, ANTHROPIC_API_KEY and
TOOLEX_COMPAT_API_KEY only. A key-like entry in the file is an error, so a key pasted there is
caught before the file is shared.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from toolex.errors import InputError
from toolex.judges import DEFAULT_JUDGE, JUDGE_STAGES
from toolex.llm.config import LLMConfig
from toolex.pipeline import settings
from toolex.pipeline.runner import Settings

_SECRET = re.compile(r"(^|_)(api_?key|key|secret|token|password)$")


@dataclass
class ExpandConfig:
    depth: int = settings.CANDIDATES_PER_SUBQUERY
    audit_cap: int = settings.AUDIT_CAP
    retriever: str = settings.CANDIDATE_RETRIEVER


@dataclass
class ToolexConfig:
    judges: dict[str, str] = field(
        default_factory=lambda: dict.fromkeys(JUDGE_STAGES, DEFAULT_JUDGE)
    )
    llm: LLMConfig = field(default_factory=LLMConfig)
    expand: ExpandConfig = field(default_factory=ExpandConfig)


def expand_settings(
    config: ToolexConfig | None = None,
    *,
    retriever: str | None = None,
    depth: int | None = None,
    audit_cap: int | None = None,
    scope: str = settings.SCOPE,
    platform_rule: str = settings.PLATFORM_RULE,
) -> Settings:
    """The pipeline settings of one run: each option given (not None) wins over the config
    file's ``[expand]``, which wins over the defaults of toolex.pipeline.settings."""
    file = config.expand if config is not None else ExpandConfig()
    return Settings(
        retriever=retriever or file.retriever or settings.CANDIDATE_RETRIEVER,
        depth=depth or file.depth,
        scope=scope,
        audit_cap=audit_cap if audit_cap is not None else file.audit_cap,
        platform_rule=platform_rule,
    )


def _section(cls: type, raw: dict[str, Any], path: str, name: str) -> Any:
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
        default = getattr(cls(), key)
        expected = type(default) if default is not None else str
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
    unknown = set(raw) - {"judges", "llm", "expand"}
    if unknown:
        raise InputError(
            f"unknown section(s) {sorted(unknown)}; known: judges, llm, expand", path=path
        )
    judges = dict.fromkeys(JUDGE_STAGES, DEFAULT_JUDGE)
    for stage, spec in raw.get("judges", {}).items():
        if stage not in JUDGE_STAGES:
            raise InputError(
                f"unknown stage (known: {', '.join(JUDGE_STAGES)})",
                path=path,
                field=f"judges.{stage}",
            )
        if not isinstance(spec, str) or not spec.strip():
            raise InputError("expected a judge spec string", path=path, field=f"judges.{stage}")
        judges[stage] = spec.strip()
    return ToolexConfig(
        judges=judges,
        llm=_section(LLMConfig, raw.get("llm", {}), path, "llm"),
        expand=_section(ExpandConfig, raw.get("expand", {}), path, "expand"),
    )
