"""Option values at the boundary: zero, negative and huge counts are refused by the option
itself (click.IntRange) before the store is opened or any stage runs, or they work; never a
traceback, never a changed store."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from attacks.conftest import Kept, Ran, digest
from attacks.tally import Tally

HUGE = "99999999999999999999"
CASES = {  # args -> must be refused
    ("expand", "--benchmark", "plain", "--depth", "0"): True,
    ("expand", "--benchmark", "plain", "--depth", "-5"): True,
    ("expand", "--benchmark", "plain", "--k", "0"): True,
    ("expand", "--benchmark", "plain", "--limit", "-1"): True,
    ("expand", "--benchmark", "plain", "--limit", "0"): True,
    ("expand", "--benchmark", "plain", "--limit", HUGE): True,
    ("expand", "--benchmark", "plain", "--audit-cap", "-1"): True,
    ("expand", "--benchmark", "plain", "--depth", "x"): True,
    ("expand", "--benchmark", "plain", "--depth", HUGE, "--dry-run"): False,
    ("expand", "--benchmark", "plain", "--audit-cap", HUGE, "--dry-run"): False,
    ("expand", "--benchmark", "plain", "--audit-cap", "0", "--dry-run"): False,
    ("eval", "--all-runs", "--k", "-1"): True,
    ("eval", "--all-runs", "--k", "0"): True,
    ("eval", "--all-runs", "--k", HUGE): True,  # no run stored: refused either way
    ("check", "--limit", "-1"): True,
    ("check", "--limit", "0"): False,
    ("retrieve", "--benchmark", "plain", "--run", "r", "--depth", "0"): True,
    ("retrieve", "--benchmark", "plain", "--run", "r", "--depth", "-1"): True,
    ("sql", "SELECT 1", "--format", "parquet"): True,
    ("review", "sample", "s", "--size", "-1", "--seed", "1"): True,
    ("review", "sample", "s", "--size", "0", "--seed", "1"): True,
}  # fmt: skip


def test_option_values_are_checked_at_the_boundary(
    bench_db: str, toolex: Callable[..., Ran]
) -> None:
    tally = Tally("options")
    before = Kept(bench_db)
    for args, refused in CASES.items():
        ran = toolex(*args, "--db", bench_db)
        case = " ".join(args)
        changed = ran.code != 0 and before.changed()
        tally.record(case, ran.outcome, changed=changed)
        if refused:
            assert ran.outcome == "clean error", (case, ran.err[-400:])
        else:
            assert ran.outcome == "correct result", (case, ran.err[-400:])
    tally.check()


@pytest.mark.parametrize("option", ["--limit", "--audit-cap", "--depth"])
def test_a_bad_expand_option_runs_no_stage(
    bench_db: str, toolex: Callable[..., Ran], option: str
) -> None:
    """Refused by the option parser: nothing ran, the store is as it was."""
    before = digest(bench_db)
    ran = toolex("expand", "--benchmark", "plain", option, "-1", "--db", bench_db)
    assert ran.code == 2 and f"Invalid value for '{option}'" in ran.err
    assert "decompose" not in ran.err  # no stage's progress line
    assert digest(bench_db) == before
