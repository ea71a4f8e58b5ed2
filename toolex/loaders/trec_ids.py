"""Item and query ids in TREC files: the one mapping of ids that hold whitespace.

TREC qrels and runs split each line on whitespace, yet real ids hold spaces (82% of the
StableToolBench library: ``Pack & Send::/api/Tracking/``). Every TREC writer and reader of toolex
goes through these two functions: a whitespace character of an id is written as its
percent-encoded UTF-8 bytes (space ``%20``, tab ``%09``, no-break space ``%C2%A0``) and ``%``
itself as ``%25``; reading decodes exactly those sequences, so a third-party id such as ``a%41``
stays as written. Everywhere else (loads, CSV, Parquet, JSON, the store) ids keep their spaces.
"""

from __future__ import annotations

import re

from toolex.errors import InputError

_PERCENT_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def trec_escape(value: str) -> str:
    """``value`` as one whitespace-free TREC field: whitespace and ``%`` percent-encoded."""
    if not value:
        raise InputError("an empty id cannot be written to a TREC file")
    if "%" not in value and not any(c.isspace() for c in value):
        return value
    return "".join(
        "".join(f"%{b:02X}" for b in c.encode()) if c.isspace() or c == "%" else c for c in value
    )


def trec_unescape(value: str) -> str:
    """The id :func:`trec_escape` wrote: percent-encoded whitespace and ``%25`` decoded, any
    other ``%XX`` left as it is."""
    if "%" not in value:
        return value
    return _PERCENT_RUN.sub(_decode_run, value)


def _decode_run(match: re.Match[str]) -> str:
    """A run of ``%XX``: the characters trec_escape wrote (whitespace, ``%``) decoded, every
    other byte sequence kept as written."""
    raw = match.group()
    data = bytes(int(raw[i + 1 : i + 3], 16) for i in range(0, len(raw), 3))
    out, pos = [], 0
    while pos < len(data):
        lead = data[pos]
        width = 1 if lead < 0x80 else 2 if lead >> 5 == 6 else 3 if lead >> 4 == 14 else 4
        chunk = data[pos : pos + width]
        try:
            ch = chunk.decode("utf-8")
        except UnicodeDecodeError:
            ch = ""
        if len(ch) == 1 and (ch.isspace() or ch == "%"):
            out.append(ch)
        else:
            width = max(1, min(width, len(chunk))) if ch else 1
            out.append(raw[3 * pos : 3 * (pos + width)])
        pos += width
    return "".join(out)
