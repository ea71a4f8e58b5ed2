"""The price table: dollars per million tokens by model family, batch at half price."""

from __future__ import annotations

import pytest

from toolex.llm.pricing import cost_usd, estimate_tokens, price


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
