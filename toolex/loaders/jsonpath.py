"""JSON paths into a record, for ``load plain --map`` (:mod:`toolex.loaders.fieldmap`).

A small subset of JSONPath, written the way people name fields::

    name                  a key
    function.name         a key of an object
    ["a.b"]               a key holding a dot (any JSON string in brackets)
    labels[0]             an index of a list
    task_nodes[*].task    every element of a list: the result is a list
    $                     the record itself ($.name is name)
    ^.tool_name           a field of the enclosing record (records nested in a list inside
                          another record: an API inside its tool); ^^ climbs two levels
    {^.tool_name}::{name} a template: text with paths in braces, each a string or a number
                          ({{ and }} are literal braces)

A path that runs into an absent key or null finds nothing (the field is missing), except under
``[*]``, where every element must have it (a hole in a list of labels is an error, not a
shorter list). A path that meets the wrong type (a key of a string, ``[*]`` of an object) is an
error. Errors are :class:`PathError` with the position reached, for the caller to locate.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Final

MISSING: Final = object()  # what a path finds when the record does not have it
_STEP = re.compile(r"\.?([^.\[\]]+)|\[(\*|-?\d+|\"(?:[^\"\\]|\\.)*\")\]")
_PIECE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


class PathError(ValueError):
    """A path that cannot be read as written, or a record that does not fit it."""


@dataclass(frozen=True)
class Path:
    """A parsed path: ``up`` levels of ``^``, then steps: a key (str), an index (int) or
    ``None`` for ``[*]``."""

    text: str
    up: int
    steps: tuple[str | int | None, ...]

    @property
    def many(self) -> bool:
        return None in self.steps


@dataclass(frozen=True)
class Template:
    """Literal text and paths, joined into one string."""

    text: str
    pieces: tuple[str | Path, ...]

    @property
    def many(self) -> bool:
        return False


Source = Path | Template


def parse(text: str) -> Source:
    """A path or a template (``{`` makes it a template); PathError says what is wrong."""
    if not text.strip():
        raise PathError("an empty path")
    if "{" not in text and "}" not in text:
        return parse_path(text)
    pieces: list[str | Path] = []
    pos = 0
    for match in _PIECE.finditer(text):
        if match.start() > pos:
            pieces.append(text[pos : match.start()])
        token = match.group()
        if token in ("{{", "}}"):
            pieces.append(token[0])
        elif token in ("{", "}"):
            raise PathError(f"unbalanced {token!r} in template {text!r} (write {token * 2})")
        else:
            path = parse_path(match.group(1))
            if path.many:
                raise PathError(f"[*] in a template piece ({match.group(1)!r}) gives a list")
            pieces.append(path)
        pos = match.end()
    pieces.append(text[pos:])
    return Template(text, tuple(p for p in pieces if p != ""))


def parse_path(text: str) -> Path:
    body = text.strip()
    if body == "$":
        return Path(text, 0, ())
    body = body.removeprefix("$.") if body.startswith("$.") else body
    up = len(body) - len(body.lstrip("^"))
    body = body[up:].removeprefix(".")
    steps: list[str | int | None] = []
    pos = 0
    while pos < len(body):
        match = _STEP.match(body, pos)
        if match is None or (match.group(1) is not None and pos > 0 and body[pos] != "."):
            raise PathError(f"cannot read path {text!r} at {body[pos:]!r}")
        key, bracket = match.group(1), match.group(2)
        if key is not None:
            steps.append(key.strip())
        elif bracket == "*":
            steps.append(None)
        elif bracket.startswith('"'):
            steps.append(json.loads(bracket))
        else:
            steps.append(int(bracket))
        pos = match.end()
    if not steps and not up:
        raise PathError(f"cannot read path {text!r}")
    return Path(text, up, tuple(steps))


def resolve(source: Source, record: object, ancestors: tuple[object, ...] = ()) -> object:
    """What ``source`` finds in ``record`` (``ancestors``: the enclosing records, outermost
    first): a value, a list (paths with ``[*]``), or MISSING."""
    if isinstance(source, Template):
        return _fill(source, record, ancestors)
    if source.up:
        if source.up > len(ancestors):
            raise PathError(
                f"{source.text!r} climbs {source.up} level(s) but the record is nested in "
                f"{len(ancestors)}"
            )
        record = ancestors[-source.up]
    found: list[tuple[object, str]] = [(record, "^" * source.up)]
    for step in source.steps:
        found = [hit for value, at in found for hit in _step(value, at, step, source.many)]
        if not found and not source.many:
            return MISSING
    if source.many:
        return [value for value, _ in found]
    value = found[0][0]
    return MISSING if value is None else value


def locate(source: Path, record: object) -> list[tuple[object, str, tuple[object, ...]]]:
    """The records a records path names in ``record``: the elements of the list it reaches
    (of every list, with ``[*]``), or the object it reaches; each with its position
    (``nodes[3]``) and its enclosing records, outermost first (what ``^`` climbs)."""
    found: list[tuple[object, str, tuple[object, ...]]] = [(record, "", (record,))]
    for step in source.steps:
        found = [
            (hit, at, chain + (hit,) if step is None else chain)
            for value, where, chain in found
            for hit, at in _step(value, where, step, source.many)
        ]
    out = []
    for value, at, chain in found:
        if source.steps and source.steps[-1] is None:
            chain = chain[:-1]  # the element is the record, not one of its enclosing ones
        if isinstance(value, list):
            out += [(item, f"{at}[{i}]", chain) for i, item in enumerate(value)]
        elif value is not None:
            out.append((value, at, chain))
    return out


def _step(value: object, at: str, step: str | int | None, strict: bool) -> list[tuple[object, str]]:
    """One step from ``value`` (found at ``at``, '' for the record itself)."""
    here = at or "the record"
    if value is None and not strict:
        return []
    if step is None:
        if not isinstance(value, list):
            raise PathError(f"[*] needs a list at {here}, found {_kind(value)}")
        return [(item, f"{at}[{i}]") for i, item in enumerate(value)]
    if isinstance(step, int):
        if not isinstance(value, list):
            raise PathError(f"[{step}] needs a list at {here}, found {_kind(value)}")
        if -len(value) <= step < len(value):
            return [(value[step], f"{at}[{step}]")]
    else:
        if not isinstance(value, dict):
            raise PathError(f"{step!r} needs an object at {here}, found {_kind(value)}")
        if value.get(step) is not None:
            return [(value[step], f"{at}.{step}" if at else step)]
    if strict:
        missing = repr(step) if isinstance(step, str) else f"[{step}]"
        raise PathError(f"{here} has no {missing}")
    return []


def _fill(template: Template, record: object, ancestors: tuple[object, ...]) -> object:
    out = []
    for piece in template.pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        value = resolve(piece, record, ancestors)
        if value is MISSING:
            return MISSING
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise PathError(f"{{{piece.text}}} is {_kind(value)}, not a string or a number")
        out.append(str(value))
    return "".join(out)


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(
        type(value), "null" if value is None else "a number"
    )
