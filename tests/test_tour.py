"""The README's Tour, run top to bottom on a fresh store, exactly as written: every command exits
0, prints no error, and no table it prints is meaningless (empty, or old = new everywhere).

Commands run from a folder beside a copy of ../shared/data (so the README's relative paths hold).
Nothing is made for the user: the run file `my_model.trec`, the config `toolex.toml`, the labels
file `my_labels.csv` and the candidate lists `elsewhere.parquet` come from the Tour's own commands
(an `export trec-run`, two heredocs and a `toolex sql --out`), which run as a user pastes them.
The one thing outside the Tour is the embedding server its `compat-embed:` URL names: the scripted
server of tests/llm on 127.0.0.1, its URL put in the commands' place. The LLM-judged commands run
with --dry-run, as the README writes them, and need no key."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLEX = str(Path(sys.executable).with_name("toolex"))
HEREDOC = re.compile(r"<<\s*'?(\w+)'?")
EMBED_URL = "http://127.0.0.1:8000"  # the embedding server the README's commands name

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]


def tour() -> list[str]:
    """The Tour's shell commands in order: continuation lines joined, comments dropped, and a
    heredoc (`cat > f <<'EOF'` ... `EOF`) kept whole as one command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Tour")
    section = readme[start : readme.index("\n## ", start)]  # up to the next section
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", section, re.S):
        lines = block.replace("\\\n", " ").splitlines()
        while lines:
            line = lines.pop(0)
            if end := HEREDOC.search(line):
                assert end.group(1) in lines, f"unterminated heredoc: {line}"
                at = lines.index(end.group(1))
                commands.append("\n".join([line, *lines[: at + 1]]))
                del lines[: at + 1]
                continue
            line = line.split("  #")[0].strip()
            if line and not line.startswith("#"):
                commands.append(line)
    return commands


def test_the_tour_lists_what_issue_15_asked_for():
    commands = tour()
    assert any(c.startswith("toolex retrieve") for c in commands)
    assert any(c.startswith("toolex info") for c in commands)
    assert any("--compare" in c for c in commands)


def test_every_file_a_tour_command_reads_is_made_by_an_earlier_one():
    """Issue 25: `my_model.trec`, `my_labels.csv` and `toolex.toml` were placeholders that
    failed when run as written. Each file a command reads is the data (../shared) or the output
    of a command above it."""
    commands = tour()
    made: set[str] = set()
    for command in commands:
        if HEREDOC.search(command):
            made.add(command.split(">")[1].split()[0])
            continue
        args = shlex.split(command)
        written = {args[i + 1] for i, a in enumerate(args[:-1]) if a in (">", "--out", "--graph")}
        for name in set(args) - written:
            if re.fullmatch(r"[\w.-]+\.(trec|csv|toml|jsonl|json|run|parquet)", name):
                assert name in made, f"{command!r} reads {name}, which no command above makes"
        made |= written
    assert {"my_model.trec", "my_labels.csv", "toolex.toml", "elsewhere.parquet"} <= made


def test_the_readme_tour_runs_top_to_bottom(shared_data, tmp_path):
    sys.path.insert(0, str(ROOT / "tests" / "llm"))
    from scripted_server import ScriptedServer

    with ScriptedServer() as server:
        # hashed bag-of-words vectors wide enough to rank about as a lexical model does
        server.embeddings.dim = 1024
        _run_tour(shared_data, tmp_path, server)
    assert server.count("embeddings") > 0  # the endpoint retriever ran over HTTP


def _run_tour(shared_data, tmp_path, server) -> None:
    commands = tour()
    assert any(EMBED_URL in c for c in commands), "the Tour shows an embedding endpoint"
    work = tmp_path / "main"
    work.mkdir()
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "data").symlink_to(shared_data)
    env = os.environ | {"TOOLEX_DB": str(work / "toolex.duckdb")}
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TOOLEX_COMPAT_API_KEY"):
        env.pop(name, None)
    ran = []
    for command in commands:
        if HEREDOC.search(command):  # a file the Tour writes: run as pasted into a shell
            done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True,
                                  text=True)  # fmt: skip
            assert done.returncode == 0, f"{command}\n{done.stderr}"
            ran.append(command)
            continue
        args = shlex.split(command.replace(EMBED_URL, server.url))
        stdout_file = None
        if ">" in args:
            stdout_file = work / args[args.index(">") + 1]
            args = args[: args.index(">")]
        assert args[0] == "toolex", command
        done = _toolex(args[1:], work, env)
        ran.append(command)
        assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
        assert "error:" not in done.stderr and "Traceback" not in done.stderr, command
        assert "degenerate expansion" not in done.stderr, f"{command}\n{done.stderr}"
        assert "(0 rows)" not in done.stdout, f"{command} printed an empty table"
        if stdout_file is not None:
            stdout_file.write_text(done.stdout, encoding="utf-8")
            assert done.stdout.count("\n") > 1, f"{command} wrote nothing"
        _check_meaning(args[1:], done.stdout, work, env)
    assert ran == commands  # every command of the Tour ran, none skipped
    assert (work / "report" / "report.md").is_file()
    assert (work / "elsewhere.parquet").is_file()
    assert (work / "expanded.parquet").is_file() and (work / "bm25.run").is_file()


def _toolex(args: list[str], cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [TOOLEX, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )


def _check_meaning(args: list[str], stdout: str, work: Path, env: dict) -> None:
    """A table that says nothing is a failure too: eval where new = old everywhere, stats
    with no valid combination, a dry run with no stage."""
    if args[0] == "eval" and "--compare" not in args and "--format" not in args:
        as_json = _toolex([*args, "--format", "json"], work, env)
        rows = json.loads(as_json.stdout)
        assert any(r["gain"] > 0 for r in rows if r.get("gain") is not None), args
    if args[0] == "stats":
        as_json = _toolex([*args, "--format", "json"], work, env)
        assert json.loads(as_json.stdout)[0]["valid_combos"] > 0, args
    if args[0] == "expand" and "--dry-run" in args:
        assert "total" in stdout and "openai:gpt-4o" in stdout, stdout
