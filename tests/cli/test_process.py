"""Issue 15, the CLI as a process: Ctrl-C during `expand` stops cleanly and loses nothing, the
lock message names its holder, slow commands show progress as plain lines when stderr is not a
terminal, -q silences it, and the shell completion script and completions work."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner, Result
from processes import Lines, sigint_default, wait

from toolex.resources import data_path

TOOLEX = [str(Path(sys.executable).with_name("toolex"))]  # the installed entry point
SAMPLE = str(data_path("sample"))


def toolex(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TOOLEX, *args], capture_output=True, text=True, timeout=300)


def in_process(*args: str) -> Result:
    """``toolex ARGS...`` in this process, for the set-up and the re-runs that check the store,
    not the process: a process pays a second of imports."""
    from toolex.cli import cli

    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("proc") / "sample.duckdb"
    done = in_process("load", "stabletoolbench", SAMPLE, "--name", "s", "--db", str(db))
    assert done.exit_code == 0, done.output
    return db


def counts(db: Path) -> tuple[int, ...]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        [row] = con.execute(
            "SELECT (SELECT count(*) FROM subqueries), (SELECT count(*) FROM candidates), "
            "(SELECT count(*) FROM verdicts), (SELECT count(*) FROM verdicts WHERE accepted), "
            "(SELECT count(*) FROM combinations WHERE status = 'valid')"
        ).fetchall()
        return row
    finally:
        con.close()


def copy(db: Path, to: Path) -> Path:
    to.write_bytes(db.read_bytes())
    return to


@pytest.mark.slow
def test_ctrl_c_during_expand_stops_cleanly_and_loses_nothing(
    sample_db: Path, tmp_path: Path
) -> None:
    """SIGINT at two points of the pipeline, each told by the progress line of the stage
    before it (after decompose: candidates under way; after candidates: verification under
    way): exit 130, one line that says how to resume, no traceback; re-running then ends
    exactly where an uninterrupted expansion ends."""
    reference = copy(sample_db, tmp_path / "ref.duckdb")
    done = in_process("expand", "--benchmark", "s", "--db", str(reference), "-q")
    assert done.exit_code == 0, done.output
    expected = counts(reference)
    interrupted = 0
    for after in ("decompose", "candidates"):
        db = copy(sample_db, tmp_path / f"cut-{after}.duckdb")
        proc = subprocess.Popen(
            [*TOOLEX, "expand", "--benchmark", "s", "--db", str(db)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=sigint_default,  # Ctrl-C must reach it even when pytest runs under nohup
        )
        lines = Lines(proc, proc.stderr)
        seen = []
        while line := lines.next():  # plain progress lines: wait for that stage to finish
            seen.append(line)
            if line.startswith(after) and " in " in line:
                break
        proc.send_signal(signal.SIGINT)
        wait(proc, 600)  # a hang guard only
        err = "".join(seen) + lines.rest()
        if proc.returncode == 0:  # finished before the signal landed: nothing to check
            continue
        assert proc.returncode == 130, err
        interrupted += 1
        assert "interrupted; re-run to resume" in err and "Traceback" not in err
        resumed = in_process("expand", "--benchmark", "s", "--db", str(db), "-q")
        assert resumed.exit_code == 0, resumed.output
        assert counts(db) == expected
    assert interrupted, "no SIGINT landed before the expansion finished: nothing was checked"


def test_the_lock_message_names_the_holder_and_the_tui(sample_db: Path, tmp_path: Path) -> None:
    db = copy(sample_db, tmp_path / "locked.duckdb")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys; con = duckdb.connect(sys.argv[1], read_only=True); "
            "print('open', flush=True); sys.stdin.read()",  # holds the store until killed
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert Lines(holder, holder.stdout).next().strip() == "open"
        done = toolex("load", "stabletoolbench", SAMPLE, "--name", "t", "--db", str(db))
        assert done.returncode == 2
        assert f"PID {holder.pid}" in done.stderr and "toolex tui" in done.stderr
        assert "Traceback" not in done.stderr
    finally:
        holder.kill()
        wait(holder)


def test_load_shows_plain_progress_lines_off_a_terminal_and_quiet_silences_them(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "p.duckdb")
    done = toolex("load", "stabletoolbench", SAMPLE, "--name", "s", "--db", db)
    assert done.returncode == 0
    assert f"loading StableToolBench from {SAMPLE}: done in " in done.stderr
    assert "\x1b[" not in done.stderr  # plain lines, no terminal codes
    again = toolex("load", "stabletoolbench", SAMPLE, "--name", "s", "--db", db, "-q")
    assert again.returncode == 0 and again.stderr == ""
    info = toolex("-q", "info", "--db", db, "--only", "benchmarks", "--format", "csv")
    assert info.stderr == "" and info.stdout.startswith("benchmark,")


def test_every_command_takes_quiet() -> None:
    from click.testing import CliRunner

    from toolex.cli import COMMANDS, cli

    for name in COMMANDS:
        res = CliRunner().invoke(cli, [name, "--help"])
        assert "-q, --quiet" in res.output, name


def test_shell_completion(sample_db: Path) -> None:
    script = toolex("completion", "bash")
    assert script.returncode == 0 and "_TOOLEX_COMPLETE" in script.stdout
    env = os.environ | {"_TOOLEX_COMPLETE": "bash_complete", "COMP_CWORD": "1"}

    def complete(words: str, cword: int) -> list[str]:
        env.update(COMP_WORDS=words, COMP_CWORD=str(cword))
        done = subprocess.run([*TOOLEX], env=env, capture_output=True, text=True, timeout=600)
        return [line.split(",", 1)[1] for line in done.stdout.splitlines() if "," in line]

    assert "expand" in complete("toolex ex", 1)
    assert "--benchmark" in complete("toolex stats --bench", 2)
    assert complete(f"toolex stats --db {sample_db} --benchmark ", 5) == ["s"]
