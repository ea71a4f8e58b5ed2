"""A run whose stage produced nothing is not a success (issue 27, point 4): `toolex expand`
against a server that fails every call (HTTP 500 or 429 on every attempt, 200 with
``"choices": []``, 200 with an HTML page) exits with EXIT_NO_OUTCOME and one line naming the
stage and why; so does a run whose verify stage alone gets nothing; a run where only some tasks
fail still exits 0, with its note. Never a traceback.

The verify case runs the installed ``toolex`` process (the entry point's exit code, as a shell
sees it); the others run main() in a child forked from this worker (tests/attacks/bounded.py:
its own process, exit code and output, the CLI's modules inherited instead of imported again,
~1.7 of a cold process's ~2 CPU-s)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from attacks.bounded import Bounded, run_bounded
from attacks.hostile_server import BODIES, COMPAT_KEY, ScriptedServer, hostile, is_decompose
from attacks.tally import Tally
from toolex.cli import EXIT_NO_OUTCOME
from toolex.store import Store

TOOLEX = str(Path(sys.executable).with_name("toolex"))  # the installed entry point
# Two attempts a call, retried at once: a failing server costs milliseconds, not minutes.
FAST = "[llm]\nmax_attempts = 2\nbackoff_base_s = 0.01\nbackoff_max_s = 0.02\n"


UNSET = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL")


def _args(db: str, tmp_path: Path, url: str, *extra: str) -> list[str]:
    config = tmp_path / "fast.toml"
    config.write_text(FAST)
    args = ["expand", "--benchmark", "plain", "--db", db, "--config", str(config)]
    return [*args, "--judge", f"compat:{url}/v1#m", *extra]


def expand(db: str, tmp_path: Path, url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """The installed ``toolex`` process."""
    env = {**os.environ, "TOOLEX_COMPAT_API_KEY": COMPAT_KEY}
    for name in UNSET:
        env.pop(name, None)
    return subprocess.run(
        [TOOLEX, *_args(db, tmp_path, url, *extra)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def expand_forked(db: str, tmp_path: Path, url: str, *extra: str) -> Bounded:
    """main() in a forked child, with the environment ``expand`` gives the installed process."""
    env: dict[str, str | None] = {"TOOLEX_COMPAT_API_KEY": COMPAT_KEY}
    env |= dict.fromkeys(UNSET)
    return run_bounded(*_args(db, tmp_path, url, *extra), env=env)


def outcome(done: subprocess.CompletedProcess[str]) -> str:
    if "Traceback (most recent call last)" in done.stderr:
        return "traceback"
    return "correct result" if done.returncode == 0 else "clean error"


@pytest.mark.parametrize("kind", list(BODIES))
def test_a_server_failing_every_call_makes_expand_exit_non_zero(
    bench_db: str, tmp_path: Path, kind: str
) -> None:
    tally = Tally("no outcome is no success")
    status, body = BODIES[kind]
    with hostile(ScriptedServer(), lambda headers, req: (status, body)) as server:
        done = expand_forked(bench_db, tmp_path, server.url)
        assert server.count("chat") == 4  # 2 queries x 2 attempts: the calls were made
    tally.record(kind, done.outcome)
    assert done.code == EXIT_NO_OUTCOME, done.err
    last = done.err.strip().splitlines()[-1]
    assert last.startswith("error: the decompose stage produced no outcome: all 2 of its task")
    assert "2x failed after 2 attempts" in last, last
    reason = {
        "HTTP 500": "HTTP 500",
        "HTTP 429": "HTTP 429",
        "empty choices": "no choices",
        "a non-JSON body": "",
    }[kind]
    assert reason in last, last
    assert "decompose" in done.out and "failed" in done.out  # the summary still printed
    with Store.open(bench_db, read_only=True) as store:
        failed = store.user_sql("SELECT count(*) AS n FROM stage_failures").column("n")
    assert failed.to_pylist() == [2]
    tally.check()


def test_a_verify_stage_that_gets_no_verdict_is_named(bench_db: str, tmp_path: Path) -> None:
    tally = Tally("no outcome is no success")

    def verify_fails(headers: dict[str, str], req: dict[str, Any]) -> tuple[int, bytes] | None:
        return None if is_decompose(req) else BODIES["HTTP 500"]

    with hostile(ScriptedServer(), verify_fails) as server:
        done = expand(bench_db, tmp_path, server.url, "--prescreen", "off")
    tally.record("verify fails, decompose answers", outcome(done))
    assert done.returncode == EXIT_NO_OUTCOME, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: the verify stage produced no outcome: all 6 of its task(s)")
    assert "HTTP 500" in last and "--retry-failed" in last
    tally.check()


def test_a_run_where_some_tasks_fail_still_succeeds_with_its_note(
    bench_db: str, tmp_path: Path
) -> None:
    tally = Tally("no outcome is no success")

    def some_fail(headers: dict[str, str], req: dict[str, Any]) -> tuple[int, bytes] | None:
        verify = not is_decompose(req)
        return BODIES["HTTP 500"] if verify and "Resize an image" in json.dumps(req) else None

    with hostile(ScriptedServer(), some_fail) as server:
        done = expand_forked(
            bench_db, tmp_path, server.url, "--prescreen", "off", "--format", "json"
        )
    tally.record("some verify tasks fail", done.outcome)
    assert done.code == 0, done.err
    verify = next(r for r in json.loads(done.out) if r["stage"] == "verify")
    assert verify["failed"] > 0 and verify["ok"] > 0, verify
    assert f"note: {verify['failed']} verify task(s) failed" in done.err
    tally.check()
