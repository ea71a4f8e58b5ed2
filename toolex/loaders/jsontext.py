"""One JSON value decoded with the limits every loader keeps (toolex/loaders/readers.py reads
files through it): nesting deeper than :data:`MAX_DEPTH`, ``NaN``/``Infinity`` (not JSON, though
Python's parser takes them), numbers beyond a float's range, integers of thousands of digits and
lone UTF-16 surrogates are each a ``json.JSONDecodeError`` at the offset they start."""

from __future__ import annotations

import json
import math
import re
from typing import NoReturn

# Levels of nesting allowed in one JSON value: tool documentation runs to about ten; Python's
# own parser gives up near a thousand with a RecursionError, and later recursive code (the
# renderer, json.dumps) sooner.
MAX_DEPTH = 100
WHITESPACE = " \t\n\r"


def skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in WHITESPACE:
        i += 1
    return i


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} is beyond the range of a float")
    return value


def _constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


_DECODER = json.JSONDecoder(parse_float=_float, parse_constant=_constant)
# A \\uD800-\\uDFFF escape: half of a UTF-16 pair, which JSON lets stand alone; Python then
# holds a string no UTF-8 file, terminal or store can take (the load failed with a traceback).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _too_deep(value: dict[str, object] | list[object]) -> bool:
    """True when ``value`` nests deeper than MAX_DEPTH (iterative: no recursion to overflow)."""
    stack: list[tuple[dict[str, object] | list[object], int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        children = node.values() if isinstance(node, dict) else node
        for child in children:
            if isinstance(child, dict | list) and child:
                stack.append((child, depth + 1))
    return False


def raw_decode(text: str, pos: int) -> tuple[object, int]:
    """One JSON value of ``text`` at ``pos`` and where it ends; every failure (syntax, depth,
    NaN, numbers too large) is a JSONDecodeError, so callers handle one type."""
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError(f"nested deeper than {MAX_DEPTH} levels", text, pos) from None
    except ValueError as exc:  # NaN/Infinity, 1e999, an integer of 5000 digits
        raise json.JSONDecodeError(str(exc).split("; use sys.")[0], text, pos) from None
    if isinstance(value, dict | list) and value and _too_deep(value):
        raise json.JSONDecodeError(f"nested deeper than {MAX_DEPTH} levels", text, pos)
    escape = _SURROGATE_ESCAPE.search(text, pos, end)
    if escape is not None:  # a pair is one character; only a lone half is refused
        _no_lone_surrogate(text, pos, end, escape.start())
    return value, end


def _no_lone_surrogate(text: str, pos: int, end: int, first: int) -> None:
    """JSONDecodeError at the first escape in ``text[pos:end]`` that decodes to a lone
    surrogate (an escape followed by its pair is one character)."""
    for match in _SURROGATE_ESCAPE.finditer(text, first, end):
        slashes = match.start() - pos - len(text[pos : match.start()].rstrip("\\"))
        if slashes % 2:
            continue  # "\\\\ud800": an escaped backslash, then the letters ud800
        code = int(match.group()[2:], 16)
        after = text[match.end() : match.end() + 6]
        if code < 0xDC00 and re.fullmatch(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}", after):
            continue  # a high half and its low half: one character
        before = text[max(pos, match.start() - 6) : match.start()]
        if code >= 0xDC00 and re.fullmatch(r"\\u[dD][89abAB][0-9a-fA-F]{2}", before):
            continue  # the low half of a pair
        raise json.JSONDecodeError(
            f"{match.group()} is a lone surrogate (half of a UTF-16 pair, no character on its "
            "own): write the character itself, or both halves of its pair",
            text,
            match.start(),
        )


def loads(text: str) -> object:
    """``json.loads`` with the limits above; failures are ``json.JSONDecodeError``."""
    start = skip_ws(text, 0)
    value, end = raw_decode(text, start)
    if skip_ws(text, end) != len(text):
        raise json.JSONDecodeError("Extra data", text, skip_ws(text, end))
    return value
