"""Prices for cost estimates, in USD per million tokens (input, output).

Taken from the providers' public price lists (standard tier, as of 2025); a cost is an estimate
for planning (`toolex expand --dry-run`), not a bill. The Batch APIs of both providers charge
half price, applied when a run uses them. A model missing from the table has cost ``None``:
reported as unknown, never guessed. Dated snapshots (``gpt-4o-2024-08-06``,
``claude-3-5-haiku-20241022``) match their family by longest prefix.
"""

from __future__ import annotations

PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4-turbo": (10.00, 30.00),
    "gpt-3.5-turbo": (0.50, 1.50),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    "claude-3-haiku": (0.25, 1.25),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-3-5-sonnet": (3.00, 15.00),
    "claude-3-7-sonnet": (3.00, 15.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-opus-4": (15.00, 75.00),
    "claude-3-opus": (15.00, 75.00),
}
BATCH_DISCOUNT = 0.5


def price(model: str | None) -> tuple[float, float] | None:
    """(input, output) USD per million tokens, or None when the model is not in the table."""
    if not model:
        return None
    matches = [name for name in PRICES_PER_MTOK if model == name or model.startswith(name + "-")]
    return PRICES_PER_MTOK[max(matches, key=len)] if matches else None


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
