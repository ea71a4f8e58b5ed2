"""What a rejected answer becomes: the retry's message to the model, and the answer as stored.

A retry after a rejected answer sends the same conversation plus the rejected answer (cut at
``ECHO_CAP``) and one user message naming the problem (``RETRY_MESSAGE``; the problem comes from
the parser's ``hint``, or ``CUT_OFF`` / ``UNREADABLE``). This wording is the one prompt text
outside prompts/: it frames any problem of any stage, and the ledger's prompt version covers the
stage prompts only, so editing it invalidates no cached answer.

A model asked again often repeats itself: a small local model at temperature 0 gave its rejected
answer back byte for byte in 43 of 44 corrected retries (issue 28), and each repeat made the next
prompt identical to the last. So ``Rejections`` follows one call's rejected answers: the first
repeat of an answer already rejected gets one varied retry (``REPEATED`` names the repeat, and
the attempt samples at ``VARY_TEMPERATURE``); a repeat after that stops the call, since the next
prompt would be one already sent. An answer the parser can rebuild without the model (a
decomposition whose texts alone name a tool) never comes here: the executor takes the rebuild at
once (noted ``REBUILT``), since the model, asked again, repeated itself word for word (issue
35.10).

Whatever a model sends is paid for and stored: ``storable`` replaces what the store cannot
encode (lone surrogates, which JSON escapes allow) and cuts at a cap with a marker.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

RETRY_MESSAGE = (
    "Your answer was rejected: {problem}. Answer again with the JSON object only, in the shape "
    "the first message asks for."
)
CUT_OFF = (
    "it was cut off at the token limit before the JSON object was complete; keep the text "
    "fields short"
)
UNREADABLE = "it is not the JSON object asked for"
REPEATED = (
    "it is, word for word, an answer you already gave and that was rejected ({problem}); "
    "write a different answer that fixes this"
)
REBUILT = "rebuilt without the model from the rejected answer"  # the ledger's note on a rebuild
VARY_TEMPERATURE = 0.7  # sampling temperature of the one varied retry after a repeat
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
    temperature: float | None = None  # the next attempt's sampling temperature (None: the judge's)

    def turns(self) -> tuple[str, str]:
        """(the rejected answer as shown back, the message naming its problem)."""
        return storable(self.answer, ECHO_CAP), RETRY_MESSAGE.format(problem=self.problem)


@dataclass(frozen=True)
class Stop:
    """Stop the call: the model repeats a rejected answer after a varied retry."""

    reason: str


class Rejections:
    """One call's rejected answers, and what follows the latest: a retry (the correction, maybe
    varied) or a stop (see the module docstring)."""

    def __init__(self, earlier: Correction | None = None) -> None:
        self.answers: set[str] = set()
        self.varied = False
        if earlier is not None:  # a batch answer rejected before the direct attempts
            self.answers.add(earlier.answer)

    def next(self, correction: Correction) -> Correction | Stop:
        """After a rejected answer (``correction``)."""
        repeat = correction.answer in self.answers
        self.answers.add(correction.answer)
        if not repeat:
            return correction
        if not self.varied:
            self.varied = True
            problem = REPEATED.format(problem=correction.problem)
            return replace(correction, problem=problem, temperature=VARY_TEMPERATURE)
        return Stop("the model repeated a rejected answer after a varied retry")
