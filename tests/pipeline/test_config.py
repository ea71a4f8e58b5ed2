"""The config file of `toolex expand` and how its [expand] settings meet the CLI's options."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolex.errors import InputError
from toolex.pipeline import settings
from toolex.pipeline.config import (
    ExpandConfig,
    Overrides,
    ToolexConfig,
    expand_settings,
    load_config,
)
from toolex.pipeline.runner import Settings


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "toolex.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_full_config(tmp_path: Path) -> None:
    cfg = load_config(
        write(
            tmp_path,
            """
[judges]
decompose = "openai:gpt-4o"
verify = "compat:http://127.0.0.1:8000/v1#qwen"
[llm]
max_in_flight = 32
timeout_s = 20
max_attempts = 3
[expand]
depth = 10
audit_cap = 5
retriever = "fastembed:bge-small"
""",
        )
    )
    assert cfg.judges == {
        "decompose": "openai:gpt-4o",
        "verify": "compat:http://127.0.0.1:8000/v1#qwen",
        "audit": "heuristic",
    }
    assert (cfg.llm.max_in_flight, cfg.llm.timeout_s, cfg.llm.max_attempts) == (32, 20.0, 3)
    assert isinstance(cfg.llm.timeout_s, float) and cfg.llm.max_tokens == 1024
    assert (cfg.expand.depth, cfg.expand.audit_cap, cfg.expand.retriever) == (
        10,
        5,
        "fastembed:bge-small",
    )


@pytest.mark.parametrize(
    ("text", "field", "why"),
    [
        ('[llm]\napi_key = "sk-123"', "llm.api_key", "environment only"),
        ('[llm]\nopenai_key = "sk-123"', "llm.openai_key", "environment only"),
        ("[llm]\nmax_inflight = 3", "llm.max_inflight", "unknown setting"),
        ('[llm]\nmax_in_flight = "many"', "llm.max_in_flight", "expected int"),
        ("[llm]\nmax_in_flight = 0", "llm.max_in_flight", "must be positive"),
        ('[judges]\nrerank = "openai:gpt-4o"', "judges.rerank", "unknown stage"),
        ("[expand]\ndepth = true", "expand.depth", "expected int"),
        ("[expand]\nk = 20", "expand.k", "unknown setting"),
    ],
)
def test_bad_settings_name_the_field(tmp_path: Path, text: str, field: str, why: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_config(path)
    assert info.value.field == field and why in info.value.message
    assert info.value.path == str(path) and "sk-123" not in str(info.value)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not valid TOML"):
        load_config(write(tmp_path, "[llm\n"))
    with pytest.raises(InputError, match="not found"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(InputError, match="unknown section"):
        load_config(write(tmp_path, "[models]\nx = 1"))


def test_defaults_have_one_home() -> None:
    defaults = (settings.CANDIDATE_RETRIEVER, settings.CANDIDATES_PER_SUBQUERY, settings.AUDIT_CAP)
    assert (ExpandConfig().retriever, ExpandConfig().depth, ExpandConfig().audit_cap) == defaults
    assert (Settings().retriever, Settings().depth, Settings().audit_cap) == defaults
    assert expand_settings() == Settings()


def test_an_option_wins_over_the_file_which_wins_over_the_default() -> None:
    config = ToolexConfig(expand=ExpandConfig(depth=7, audit_cap=3, retriever="wordllama"))
    from_file = expand_settings(config)
    assert (from_file.retriever, from_file.depth, from_file.audit_cap) == ("wordllama", 7, 3)
    given = expand_settings(
        config, Overrides(retriever="bm25", depth=5, audit_cap=0, platform_rule="strict")
    )
    assert (given.retriever, given.depth, given.audit_cap, given.platform_rule) == (
        "bm25",
        5,
        0,  # a cap of 0 is a choice (audit nothing), not "unset"
        "strict",
    )
    assert expand_settings(None, Overrides(depth=9)).audit_cap == settings.AUDIT_CAP
