"""What an embeddings endpoint answered, read: one finite vector per text, all of one width.

The answer is read raw (``json.loads`` and numpy), not through the openai SDK's models, which
built an object per number: a compatible server's float JSON cost 0.9-2.2 ms a text on the
client for 384-1,024 numbers, and 0.2-0.44 read here (``benchmarks/bench_embed_parse.py``).
Vectors come as lists of numbers (``encoding_format`` float, what toolex asks a compatible
server for) or as base64 of little-endian float32 bytes (what it asks OpenAI for, the SDK's
default). Anything else is a :class:`MalformedAnswer` that says what was wrong.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass

import numpy as np

from toolex.llm.clients import token_count

# The widest vector taken from a model whose width is not known yet: embedding models give 384
# to 4,096 numbers (OpenAI's largest 3,072; the widest known, 12,288). A server answering
# 200,000-wide vectors filled memory for minutes (issue 37.8): it is refused.
MAX_WIDTH = 16_384
_BYTES_PER_NUMBER = 32  # a float as JSON text, at most ("-0.012345678901234567, ")


@dataclass(frozen=True)
class Answer:
    """One request's vectors (rows in the order of its texts) and its token count."""

    vectors: np.ndarray
    prompt_tokens: int | None


def answer_bytes(texts: int, width: int) -> int:
    """The most bytes an answer of ``texts`` vectors of ``width`` numbers (0: unknown, up to
    ``MAX_WIDTH``) can take as JSON text, with room for the envelope: more is refused unread."""
    return 65_536 + texts * (1_024 + (width or MAX_WIDTH) * _BYTES_PER_NUMBER)


class MalformedAnswer(Exception):
    """The server answered, but not with one finite vector per text of one width."""


def read_answer(body: bytes, n: int, width: int = 0) -> Answer:
    """The ``n`` vectors (of ``width`` numbers, 0: not known yet) and the token count of an
    answer's ``body``; a MalformedAnswer for anything else."""
    payload = _payload(body)
    return Answer(_vectors(payload, n, width), _tokens(payload))


def _payload(body: bytes) -> dict[str, object]:
    """The answer's JSON object (a MalformedAnswer if it is none)."""
    try:
        payload = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise MalformedAnswer("an answer that is not JSON") from None
    if not isinstance(payload, dict):
        raise MalformedAnswer(f"an answer that is a JSON {type(payload).__name__}, not an object")
    return payload


def _vectors(payload: dict[str, object], n: int, width: int = 0) -> np.ndarray:
    try:
        out = np.asarray(_in_order(payload, n), dtype=np.float32)
    except (TypeError, ValueError):
        raise MalformedAnswer("vectors of different widths, or not numbers") from None
    if out.ndim != 2 or out.shape[1] == 0:
        raise MalformedAnswer(f"vectors of shape {out.shape}, not one row of numbers per text")
    if not np.isfinite(out).all():
        raise MalformedAnswer("a vector holds NaN or infinity")
    _check_width(out.shape[1], width)
    zero = int((~out.any(axis=1)).sum())
    if zero:  # no direction: every similarity to it is 0, so it ranks nothing
        raise MalformedAnswer(f"all-zero vectors for {zero} of {n} texts")
    return out


def _in_order(payload: dict[str, object], n: int) -> list[object]:
    """The answer's ``n`` embeddings in the order of the texts sent."""
    data = payload.get("data") or []
    if not isinstance(data, list) or len(data) != n:
        count = len(data) if isinstance(data, list) else 0
        raise MalformedAnswer(f"{count} vectors for {n} texts")
    order = []
    for i, d in enumerate(data):  # servers give each vector's index; absent: list order
        index = d.get("index") if isinstance(d, dict) else None
        order.append(index if isinstance(index, int) and not isinstance(index, bool) else i)
    if sorted(order) != list(range(n)):
        raise MalformedAnswer(f"vector indexes {sorted(order)[:5]}... are not 0..{n - 1}")
    rows: list[object] = [None] * n
    for i, d in zip(order, data, strict=True):
        rows[i] = _embedding(d.get("embedding") if isinstance(d, dict) else None)
    return rows


def _embedding(value: object) -> object:
    """One vector as sent: a list of numbers, or (base64) little-endian float32 bytes."""
    if isinstance(value, str):
        try:
            return np.frombuffer(base64.b64decode(value, validate=True), dtype="<f4")
        except (ValueError, binascii.Error):
            raise MalformedAnswer("a base64 vector that is not float32 bytes") from None
    return value


def _check_width(got: int, width: int) -> None:
    """``got`` is the ``width`` the model gave before (if any) and no wider than any model's."""
    if width and got != width:
        raise MalformedAnswer(
            f"vectors of width {got:,}, not the {width:,} it gave before (another "
            "model served under that name?)"
        )
    if got > MAX_WIDTH:
        raise MalformedAnswer(
            f"vectors of width {got:,}, wider than any embedding model's (at most {MAX_WIDTH:,})"
        )


def _tokens(payload: dict[str, object]) -> int | None:
    usage = payload.get("usage")
    return token_count(usage.get("prompt_tokens") if isinstance(usage, dict) else None)
