"""What stands behind a "new" score, on stderr: `toolex stats`, `eval` and `report` print the
lines of toolex.reports.trust so the data on stdout stays one clean table."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # the CLI modules import this one at start-up: keep it light
    from toolex.reports.trust import ExpansionTrust


def echo_trust(trusts: Iterable[ExpansionTrust | None]) -> None:
    """Each expansion's trust lines once (several runs may share a benchmark), to stderr."""
    seen: set[tuple[str, str]] = set()
    for trust in trusts:
        if trust is None or (trust.benchmark, trust.expansion) in seen:
            continue
        seen.add((trust.benchmark, trust.expansion))
        for line in trust.lines():
            click.echo(line, err=True)
