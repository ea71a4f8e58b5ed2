"""Exit codes through the real entry point (the installed `toolex` script, `toolex.cli:main`), not
CliRunner: `main()` runs click outside standalone mode, where click hands a command's
``Exit(3)`` back as a return value instead of exiting with it, so only a process shows what a
shell sees (issue 28.2: `expand --max-calls 0; echo $?` printed 0)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pipeline.fixtures import build

from llm.llm_support import ScriptedServer
from toolex.cli.expand import BUDGET_EXIT
from toolex.store import Store

TOOLEX = str(Path(sys.executable).with_name("toolex"))


def toolex(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run(
        [TOOLEX, *args], capture_output=True, text=True, timeout=300, env=env, check=False
    )


@pytest.fixture
def compat_setup(tmp_path: Path) -> Iterator[tuple[list[str], ScriptedServer]]:
    db = tmp_path / "b.duckdb"
    with Store.open(db) as store:
        build(store)
    with ScriptedServer() as server:
        config = tmp_path / "toolex.toml"
        config.write_text(
            f'[judges]\nverify = "compat:{server.url}/v1#qwen2.5-1.5b"\n'
            "[llm]\nbackoff_base_s = 0.01\n",
            encoding="utf-8",
        )
        yield ["--db", str(db), "--benchmark", "b", "--config", str(config)], server


@pytest.mark.slow
def test_a_budget_stop_exits_3_through_the_real_entry_point(
    compat_setup: tuple[list[str], ScriptedServer],
) -> None:
    args, server = compat_setup
    stopped = toolex("expand", *args, "--max-calls", "0")
    assert stopped.returncode == BUDGET_EXIT == 3, stopped.stderr
    assert "stopped: the budget (0 calls) is spent: 0 calls" in stopped.stderr
    assert server.count("chat") == 0
    capped = toolex("expand", *args, "--max-calls", "1")
    assert capped.returncode == 3, capped.stderr
    assert server.count("chat") == 1
    done = toolex("expand", *args)  # the rest of the run: a clean end is still 0
    assert done.returncode == 0, done.stderr


def test_errors_and_usage_keep_their_codes_through_the_real_entry_point(tmp_path: Path) -> None:
    missing = toolex("expand", "--db", str(tmp_path / "none.duckdb"), "--benchmark", "nope")
    assert missing.returncode == 2 and "error:" in missing.stderr
    usage = toolex("expand", "--no-such-option")
    assert usage.returncode == 2 and "No such option" in usage.stderr
    assert toolex("--version").returncode == 0


@pytest.mark.slow
def test_a_judges_eval_budget_stop_exits_3_through_the_real_entry_point(tmp_path: Path) -> None:
    db = tmp_path / "j.duckdb"
    with Store.open(db) as store:
        build(store)
    labels = Path(__file__).resolve().parents[1] / "labels" / "data" / "small.jsonl"
    with ScriptedServer() as server:
        judge = f"compat:{server.url}/v1#qwen2.5-1.5b"
        base = ["judges", "eval", "--labels", str(labels), "--db", str(db), "--judge", judge]
        capped = toolex(*base, "--max-calls", "1")
        assert capped.returncode == BUDGET_EXIT, capped.stderr
        assert "stopped: the call budget (1 call) was spent" in capped.stderr
        assert server.count("chat") == 1
