"""The per-stage judge configuration file (TOML).

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

    [expand]
    k = 20                 # candidates retrieved per sub-query
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

STAGES = ("decompose", "verify", "audit")
_SECRET = re.compile(r"(^|_)(api_?key|key|secret|token|password)$")


@dataclass
class LLMConfig:
    max_in_flight: int = 16
    timeout_s: float = 60.0
    max_attempts: int = 5
    backoff_base_s: float = 1.0
    backoff_max_s: float = 60.0
    max_tokens: int = 1024
    batch: bool = False
    batch_poll_s: float = 30.0
    openai_base_url: str | None = None
    anthropic_base_url: str | None = None


@dataclass
class ExpandConfig:
    k: int = 20
    audit_cap: int = 20
    retriever: str = "bm25"


@dataclass
class ToolexConfig:
    judges: dict[str, str] = field(default_factory=lambda: dict.fromkeys(STAGES, "heuristic"))
    llm: LLMConfig = field(default_factory=LLMConfig)
    expand: ExpandConfig = field(default_factory=ExpandConfig)


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
        if expected in (int, float) and value <= 0:
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
    judges = dict.fromkeys(STAGES, "heuristic")
    for stage, spec in raw.get("judges", {}).items():
        if stage not in STAGES:
            raise InputError(
                f"unknown stage (known: {', '.join(STAGES)})", path=path, field=f"judges.{stage}"
            )
        if not isinstance(spec, str) or not spec.strip():
            raise InputError("expected a judge spec string", path=path, field=f"judges.{stage}")
        judges[stage] = spec.strip()
    return ToolexConfig(
        judges=judges,
        llm=_section(LLMConfig, raw.get("llm", {}), path, "llm"),
        expand=_section(ExpandConfig, raw.get("expand", {}), path, "expand"),
    )
