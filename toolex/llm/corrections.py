"""What a rejected answer becomes: the retry's message to the model, and the answer as stored.

A retry after a rejected answer sends the same conversation plus the rejected answer (cut at
``ECHO_CAP``) and one user message naming the problem (``RETRY_MESSAGE``; the problem comes from
the parser's ``hint``, or ``CUT_OFF`` / ``UNREADABLE``). This wording is the one prompt text
outside prompts/: it frames any problem of any stage, and the ledger's prompt version covers the
stage prompts only, so editing it invalidates no cached answer.

Whatever a model sends is paid for and stored: ``storable`` replaces what the store cannot
encode (lone surrogates, which JSON escapes allow) and cuts at a cap with a marker.
"""

from __future__ import annotations

from dataclasses import dataclass

RETRY_MESSAGE = (
    "Your answer was rejected: {problem}. Answer again with the JSON object only, in the shape "
    "the first message asks for."
)
CUT_OFF = (
    "it was cut off at the token limit before the JSON object was complete; keep the text "
    "fields short"
)
UNREADABLE = "it is not the JSON object asked for"
ANSWER_CAP = 20_000  # characters of an answer the ledger keeps
ECHO_CAP = 8_000  # characters of a rejected answer shown back to the model
ERROR_CAP = 500  # characters of an error message the ledger keeps
MAX_TOKENS_GROWTH = 4  # a cut-off answer's retries may use up to this times the judge's budget


def storable(text: str, cap: int) -> str:
    """``text`` as the ledger can hold it: unencodable characters replaced, cut at ``cap``
    characters with a marker that says so."""
    text = text.encode("utf-8", "replace").decode("utf-8")
    if len(text) <= cap:
        return text
    return f"{text[:cap]} [... cut: {len(text):,} characters in all]"


@dataclass(frozen=True)
class Correction:
    """What the next attempt of a call tells the model after a rejected answer."""

    answer: str  # the rejected answer
    problem: str  # what was wrong with it, worded for the model
    max_tokens: int | None = None  # the budget of the next attempt (None: the judge's)

    def turns(self) -> tuple[str, str]:
        """(the rejected answer as shown back, the message naming its problem)."""
        return storable(self.answer, ECHO_CAP), RETRY_MESSAGE.format(problem=self.problem)
