"""How sure a judge was of a verdict: ``Verdict.confidence``, P(yes) as the judge sees it, stored
in ``verdicts.confidence`` and read by the uncertainty orders (``review sample --order
uncertainty``, the verdict-level review; ``expand --order uncertainty`` orders by the offline
prior, the only confidence a task has before its call).

- The offline judge: its fitted score (toolex.judges.operating_points).
- An LLM judge whose API returns token log-probabilities (OpenAI, and OpenAI-compatible servers
  that give them): the probability of the verdict word it wrote, against the other verdict word
  at that place (toolex.llm.logprobs.choice_probability), stored with the parsed answer in the
  call ledger as ``p_yes`` so a repeat served from the ledger carries the same confidence.
- An LLM judge without them (Anthropic's API has none; a compatible server may refuse them):
  a second judge's disagreement signal, the mean of two judges' P(yes), the LLM's verdict
  (1 for yes, 0 for no) and the offline screen's score (``second_judge``): two judges that
  agree land near 0 or 1, a disagreement near 0.5, the decision boundary, where the
  uncertainty orders look first. The verify stage applies it (toolex.pipeline.verify).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from toolex.llm.clients import Reply
from toolex.llm.logprobs import choice_probability

# Where a verdict answer writes its verdict word: the value of its "verdict" key (a key inside
# the reason string would have escaped quotes, so it never matches).
_VERDICT_AT = re.compile(r'"verdict"\s*:\s*"(yes|no)"')
KEY = "p_yes"  # the key of the parsed answer the confidence is stored under


def from_tokens(parsed: object, reply: Reply) -> object:
    """``parsed`` (a verdict answer) with ``p_yes`` from the reply's token log-probabilities,
    or unchanged when the reply has none or they do not show the verdict word."""
    if not isinstance(parsed, dict) or not reply.tokens:
        return parsed
    match = _VERDICT_AT.search(reply.text)
    if match is None or match.group(1) != parsed.get("verdict"):
        return parsed
    p = choice_probability(reply.tokens, reply.text, match.start(1), ("yes", "no"))
    return parsed if p is None else {**parsed, KEY: round(p, 6)}


def stored(parsed: Mapping[str, object]) -> float | None:
    """The confidence a parsed answer carries (None: none, or not a probability)."""
    p = parsed.get(KEY)
    if isinstance(p, bool) or not isinstance(p, int | float) or not 0.0 <= p <= 1.0:
        return None
    return float(p)


def second_judge(accepted: bool, prior: float | None) -> float | None:
    """The mean of the verdict (1 yes, 0 no) and a second judge's P(yes) (the offline screen's
    score): the confidence of a verdict whose judge gave none. None without a prior."""
    if prior is None or math.isnan(prior):
        return None
    return round((float(accepted) + prior) / 2, 6)
