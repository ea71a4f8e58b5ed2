"""Reading a paid answer: accepted, rebuilt by its parser, or rejected with the correction the
retry sends (toolex/llm/executor.py makes the attempts, toolex/llm/corrections.py words the
corrections)."""

from __future__ import annotations

from toolex.errors import AnswerError
from toolex.llm.calls import Call
from toolex.llm.clients import Reply
from toolex.llm.corrections import (
    CUT_OFF,
    ERROR_CAP,
    MAX_TOKENS_GROWTH,
    REBUILT,
    UNREADABLE,
    Correction,
    storable,
)
from toolex.llm.ledger import Attempt


def parse_answer(
    row: Attempt, reply: Reply, call: Call, max_tokens: int | None, judge_max_tokens: int
) -> Correction | None:
    """Parse ``reply`` into ``row`` (status ``ok``, or ``malformed`` with its error); the
    correction for the next attempt when rejected. ``max_tokens``: the attempt's own budget
    (None: the judge's, ``judge_max_tokens``). An answer the parser rebuilt without the model is
    the row's answer, noted as rebuilt."""
    budget = max_tokens or judge_max_tokens
    row.status = "malformed"
    if reply.truncated:
        bigger = min(budget * 2, judge_max_tokens * MAX_TOKENS_GROWTH)
        row.error = f"cut off at max_tokens={budget}; next attempt: max_tokens={bigger}"
        return Correction(reply.text, CUT_OFF, max(budget, bigger))
    try:
        row.parsed = call.parse(reply.text)
    except AnswerError as exc:
        row.error = storable(str(exc), ERROR_CAP)
        fallback = getattr(exc, "fallback", None)
        if fallback is None:
            hint = getattr(exc, "hint", None) or str(exc)
            return Correction(reply.text, storable(hint, ERROR_CAP), max_tokens)
        row.parsed = fallback
        row.error = storable(f"{REBUILT}; rejected: {row.error}", ERROR_CAP)
    except Exception as exc:  # RecursionError from deep nesting, a parser bug: malformed
        row.error = storable(f"unreadable answer: {type(exc).__name__}: {exc}", ERROR_CAP)
        return Correction(reply.text, UNREADABLE, max_tokens)
    if call.annotate is not None:
        row.parsed = call.annotate(row.parsed, reply)
    row.status = "ok"
    return None
