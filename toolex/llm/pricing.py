"""Prices for cost estimates and budgets, in USD per million tokens (input, output).

Taken from the providers' public price lists (standard tier, uncached input; checked 2025-10);
a cost is an estimate for planning and budgets (`toolex expand --dry-run`, `--max-cost`), not a
bill. The Batch APIs of both providers charge half price, applied when a run uses them.

Open-weight models are usually called through OpenAI-compatible endpoints (``compat:``); they
are listed at their maker's own API price (DeepSeek, Alibaba Cloud Model Studio for Qwen,
Mistral) or, for Llama, a common host's (Together). Another host, or a server of your own,
costs something else: say so in ``toolex.toml`` (``[prices."qwen2.5-72b-instruct"] input = 0,
output = 0``), which wins over this table (:func:`set_overrides`).

A model missing from both has cost ``None``: reported as unknown, never guessed. Dated snapshots
(``gpt-4o-2024-08-06``, ``claude-3-5-haiku-20241022``) match their family by longest prefix, and
an organisation prefix (``meta-llama/Llama-3.3-70B-Instruct-Turbo``) and letter case are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping

PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    # OpenAI
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "o1": (15.00, 60.00),
    "o1-mini": (1.10, 4.40),
    "o3": (2.00, 8.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    "gpt-4-turbo": (10.00, 30.00),
    "gpt-4": (30.00, 60.00),
    "gpt-3.5-turbo": (0.50, 1.50),
    # OpenAI embeddings (input only: an embedding call produces no tokens)
    "text-embedding-3-small": (0.02, 0.0),
    "text-embedding-3-large": (0.13, 0.0),
    "text-embedding-ada-002": (0.10, 0.0),
    # Anthropic
    "claude-opus-4-1": (15.00, 75.00),
    "claude-opus-4": (15.00, 75.00),
    "claude-sonnet-4-5": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-opus": (15.00, 75.00),
    "claude-3-haiku": (0.25, 1.25),
    # Open-weight models, at their maker's API (or, for Llama, Together's) price
    "deepseek-chat": (0.28, 0.42),  # DeepSeek-V3.2 behind the chat endpoint
    "deepseek-reasoner": (0.28, 0.42),
    "qwen-max": (1.60, 6.40),
    "qwen-plus": (0.40, 1.20),
    "qwen-turbo": (0.05, 0.20),
    "qwen2.5-72b-instruct": (1.40, 5.60),
    "llama-3.3-70b-instruct": (0.88, 0.88),
    "llama-3.1-405b-instruct": (3.50, 3.50),
    "llama-3.1-70b-instruct": (0.88, 0.88),
    "llama-3.1-8b-instruct": (0.18, 0.18),
    "mistral-large": (2.00, 6.00),
    "mistral-small": (0.10, 0.30),
}
BATCH_DISCOUNT = 0.5

# [prices."model"] of the config file; they win over the table (set by toolex.pipeline.config).
_OVERRIDES: dict[str, tuple[float, float]] = {}


def set_overrides(prices: Mapping[str, tuple[float, float]]) -> None:
    """Use ``prices`` (model -> (input, output) per million tokens) before the table, in place
    of any earlier overrides. Matched like the table: longest family prefix, any case."""
    _OVERRIDES.clear()
    _OVERRIDES.update({name.lower(): rates for name, rates in prices.items()})


def price(model: str | None) -> tuple[float, float] | None:
    """(input, output) USD per million tokens, or None when the model is not priced."""
    if not model:
        return None
    name = model.lower()
    for table in (_OVERRIDES, PRICES_PER_MTOK):
        for candidate in dict.fromkeys((name, name.rpartition("/")[2])):
            matches = [f for f in table if candidate == f or candidate.startswith(f + "-")]
            if matches:
                return table[max(matches, key=len)]
    return None


def cost_usd(
    model: str | None,
    prompt_tokens: int | None,
    completion_tokens: int | None,
    *,
    batch: bool = False,
) -> float | None:
    """Cost of one call; None when the price or the token counts are unknown."""
    rates = price(model)
    if rates is None or prompt_tokens is None or completion_tokens is None:
        return None
    cost = (prompt_tokens * rates[0] + completion_tokens * rates[1]) / 1_000_000
    return cost * BATCH_DISCOUNT if batch else cost


def estimate_tokens(text: str) -> int:
    """Rough token count for planning: one token per four characters (OpenAI's rule of thumb)."""
    return max(1, (len(text) + 3) // 4)
