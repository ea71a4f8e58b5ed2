"""Token log-probabilities of an answer, as the OpenAI chat API (and OpenAI-compatible servers:
vLLM, llama.cpp, recent Ollama) returns them when asked (``logprobs: true, top_logprobs: n``).

A reply's tokens are kept as :class:`TokenProb` rows, the token's text, its log-probability and
the most likely alternatives at that position, read from the SDK's objects or from the plain
dicts of a batch output file alike. ``choice_probability`` then asks what a judge needs: how
likely the model found the word it wrote at one place of its answer (a verdict's "yes"), against
the words it could have written there instead. Anthropic's API returns no log-probabilities;
its replies carry none, and callers fall back to another signal.

What a server sends is untrusted: a token list that is not a list, a log-probability that is not
a number, or tokens that do not spell the answer text make the probability unknown (None),
never an error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# Alternatives asked for per answer token: enough to see the other verdict word when the model
# was unsure, few enough to keep answers small (OpenAI allows up to 20).
TOP_LOGPROBS = 5


@dataclass(frozen=True)
class TokenProb:
    token: str
    logprob: float
    top: tuple[tuple[str, float], ...] = ()  # (alternative, logprob), most likely first


def _get(obj: object, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _logprob(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    value = float(value)
    return value if math.isfinite(value) and value <= 0.0 else None


def read_openai(choice: object) -> tuple[TokenProb, ...] | None:
    """The content tokens of a chat completion choice (SDK object or dict), or None."""
    content = _get(_get(choice, "logprobs"), "content")
    if not isinstance(content, list) or not content:
        return None
    out = []
    for item in content:
        token, lp = _get(item, "token"), _logprob(_get(item, "logprob"))
        if not isinstance(token, str) or lp is None:
            return None
        top = []
        for alt in _get(item, "top_logprobs") or []:
            alt_token, alt_lp = _get(alt, "token"), _logprob(_get(alt, "logprob"))
            if isinstance(alt_token, str) and alt_lp is not None:
                top.append((alt_token, alt_lp))
        out.append(TokenProb(token, lp, tuple(top)))
    return tuple(out)


def _word(token: str) -> str:
    """A token as the word it writes: '"yes' and ' Yes' are 'yes'."""
    return re.sub(r"[^a-z]", "", token.lower())


def choice_probability(
    tokens: Sequence[TokenProb] | None, text: str, at: int, options: tuple[str, str]
) -> float | None:
    """P(options[0]) against options[1] at character ``at`` of ``text`` (where the answer
    writes one of them), from the token covering that character and its alternatives.

    Both options among the token and its alternatives: ``p0 / (p0 + p1)``. Only the written one
    seen: its own probability (the rest of the mass counted against it), i.e. ``p0`` when
    ``options[0]`` was written, ``1 - p1`` when ``options[1]`` was. None when the tokens do not
    spell ``text`` or the token there is neither option.
    """
    if not tokens or "".join(t.token for t in tokens) != text:
        return None
    start = 0
    for t in tokens:
        if start <= at < start + len(t.token):
            break
        start += len(t.token)
    else:
        return None
    # The alternatives usually include the written token; tokens spelling one word another way
    # ('yes', ' Yes') are one choice, so their probabilities add up.
    alternatives = dict(t.top)
    alternatives.setdefault(t.token, t.logprob)
    mass = dict.fromkeys(options, 0.0)
    for alt, lp in alternatives.items():
        if _word(alt) in mass:
            mass[_word(alt)] += math.exp(lp)
    written = _word(t.token)
    if written not in mass:
        return None
    p0, p1 = mass[options[0]], mass[options[1]]
    if p0 > 0 and p1 > 0:
        return p0 / (p0 + p1)
    return p0 if written == options[0] else 1.0 - p1
