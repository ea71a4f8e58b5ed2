"""The price table: dollars per million tokens by model family, batch at half price."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolex.llm.pricing import cost_usd, estimate_tokens, price


def test_prices() -> None:
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


def test_current_models_and_open_weight_ones_behind_compatible_endpoints() -> None:
    assert price("gpt-4.1-mini-2025-04-14") == (0.40, 1.60)
    assert price("claude-sonnet-4-5-20250929") == (3.00, 15.00)
    assert price("claude-haiku-4-5") == (1.00, 5.00)
    assert price("o3-mini") == (1.10, 4.40) and price("o3") == (2.00, 8.00)
    # an organisation prefix and letter case are ignored (compat endpoints name models so)
    assert price("meta-llama/Llama-3.3-70B-Instruct") == (0.88, 0.88)
    assert price("deepseek-chat") == (0.28, 0.42)


def test_config_prices_win_over_the_table(tmp_path: Path) -> None:
    from toolex.errors import InputError
    from toolex.llm.pricing import set_overrides
    from toolex.pipeline.config import load_config

    path = tmp_path / "toolex.toml"
    path.write_text(
        '[prices."qwen2.5-7b-instruct"]\ninput = 0\noutput = 0\n'
        '[prices."gpt-4o-mini"]\ninput = 1\noutput = 2.5\n',
        encoding="utf-8",
    )
    try:
        config = load_config(path)
        assert config.prices["gpt-4o-mini"] == (1.0, 2.5)
        assert price("qwen2.5-7b-instruct") == (0.0, 0.0)  # a server of your own: free
        assert cost_usd("gpt-4o-mini-2024-07-18", 1_000_000, 1_000_000) == pytest.approx(3.5)
        path.write_text('[prices."m"]\ninput = -1\noutput = 1\n', encoding="utf-8")
        with pytest.raises(InputError, match="prices.m.input"):
            load_config(path)
        path.write_text('[prices."m"]\ninput = 1\n', encoding="utf-8")
        with pytest.raises(InputError, match="prices.m.output"):
            load_config(path)
        path.write_text("[llm]\nmax_in_flight = 4\n", encoding="utf-8")
        load_config(path)  # the last config loaded decides: no [prices], no overrides
        assert price("gpt-4o-mini") == (0.15, 0.60)
    finally:
        set_overrides({})
