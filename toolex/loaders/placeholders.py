"""Call chains written as placeholders inside parameter values, as Seal-Tools writes them.

A step of an annotated plan names what its results are called (``"responses": ["API_call_0"]``),
and a later step passes one as a parameter value (``"parameters": {"artwork_id":
"API_call_0"}``): the second step takes the first one's output. ``load plain`` reads these from
a query's gold steps, ``labels[*].outputs`` (a placeholder or a list of them) and
``labels[*].arguments`` (the parameter values: an object, a list or a string), and each
placeholder found in another step's arguments is a dependency edge ``{from: producer, to:
consumer, value: the parameter's name}``, stored as any edge the file gives.

A placeholder is found in a value when the value is the placeholder, or holds it with no letter,
digit or underscore on either side (``API_call_0.document_id`` and ``$API_call_0$`` hold
``API_call_0``; ``API_call_10`` does not). A placeholder two steps claim, or a step passing its
own output to itself, is an error located at the query.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from toolex.loaders.fields import Where

OUTPUTS, ARGUMENTS = "labels.outputs", "labels.arguments"  # the fields, as errors name them


def placeholder_edges(
    steps: Sequence[tuple[object, object]], where: Where
) -> list[dict[str, object]]:
    """The edges of one query's steps, each given as ``(outputs, arguments)`` in plan order
    (None where a step has none): ``{"from", "to", "value"}`` by position, each edge once."""
    producer: dict[str, int] = {}
    for position, (outputs, _) in enumerate(steps):
        for token in _tokens(outputs, where):
            first = producer.setdefault(token, position)
            if first != position:
                raise where.error(
                    f"placeholder {token!r} is the output of steps {first} and {position}: "
                    "each step's outputs must be named apart",
                    OUTPUTS,
                )
    if not producer:
        return []
    found = re.compile(
        r"(?<![A-Za-z0-9_])("
        + "|".join(re.escape(t) for t in sorted(producer, key=len, reverse=True))
        + r")(?![A-Za-z0-9_])"
    )
    edges: dict[tuple[int, int, str], None] = {}
    for position, (_, arguments) in enumerate(steps):
        for name, text in _values(arguments, ""):
            for match in found.finditer(text):
                source = producer[match.group(1)]
                if source == position:
                    raise where.error(
                        f"step {position} passes its own output {match.group(1)!r} to itself",
                        ARGUMENTS,
                    )
                edges[(source, position, name)] = None
    return [{"from": a, "to": b, "value": name} for a, b, name in edges]


def _tokens(outputs: object, where: Where) -> list[str]:
    if outputs is None:
        return []
    given = outputs if isinstance(outputs, list) else [outputs]
    out = []
    for token in given:
        if not isinstance(token, str) or not token.strip():
            raise where.error(
                f"a step's outputs are placeholder names (strings), found {token!r}", OUTPUTS
            )
        out.append(token.strip())
    return out


def _values(value: object, name: str) -> Iterator[tuple[str, str]]:
    """Every string inside ``value`` with the parameter it is passed as: an object's keys joined
    by dots (``filter.id``), a list's elements under their parameter's name."""
    if isinstance(value, str):
        yield name, value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from _values(inner, f"{name}.{key}" if name else str(key))
    elif isinstance(value, list):
        for inner in value:
            yield from _values(inner, name)
