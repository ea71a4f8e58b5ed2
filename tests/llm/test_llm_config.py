"""The judge config file and the price table."""

from __future__ import annotations

import pytest

from toolex.errors import InputError
from toolex.llm.config import load_config
from toolex.llm.pricing import cost_usd, estimate_tokens, price


def write(tmp_path, text):
    path = tmp_path / "toolex.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_full_config(tmp_path):
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
k = 10
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
    assert (cfg.expand.k, cfg.expand.audit_cap, cfg.expand.retriever) == (
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
        ("[expand]\nk = true", "expand.k", "expected int"),
    ],
)
def test_bad_settings_name_the_field(tmp_path, text, field, why):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_config(path)
    assert info.value.field == field and why in info.value.message
    assert info.value.path == str(path) and "sk-123" not in str(info.value)


def test_unreadable_files(tmp_path):
    with pytest.raises(InputError, match="not valid TOML"):
        load_config(write(tmp_path, "[llm\n"))
    with pytest.raises(InputError, match="not found"):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(InputError, match="unknown section"):
        load_config(write(tmp_path, "[models]\nx = 1"))


def test_prices():
    assert price("gpt-4o") == (2.50, 10.00)
    assert price("gpt-4o-mini-2024-07-18") == (0.15, 0.60)  # longest family prefix wins
    assert price("claude-3-5-haiku-20241022") == (0.80, 4.00)
    assert price("qwen2.5-7b-instruct") is None and price(None) is None
    # 1,000 prompt + 100 answer tokens on gpt-4o: (1000*2.5 + 100*10) / 1e6
    assert cost_usd("gpt-4o", 1000, 100) == pytest.approx(0.0035)
    assert cost_usd("gpt-4o", 1000, 100, batch=True) == pytest.approx(0.00175)
    assert cost_usd("mystery-model", 1000, 100) is None
    assert cost_usd("gpt-4o", None, 100) is None
    assert estimate_tokens("abcdefgh") == 2 and estimate_tokens("abcdefghi") == 3
