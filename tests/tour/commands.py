"""The Tour (docs/tour.md) as commands, split into chains that need nothing from one another,
and the runner that executes a chain in a fresh folder and store, exactly as written.

A chain keeps the Tour's order, repeats the loads it needs (a load takes a second; the
expansions and retrievals are the minutes), and every Tour command belongs to at least one chain
(tests/test_tour.py checks both). pytest-xdist hands out whole files (--dist loadfile), so each
chain is its own test file: the Tour in one test took 169 s of one worker while the others
idled at the end of the suite. The ToolRet commands that name a remote model (the retrieval over
the embedding endpoint, a third of the ToolRet chain's CPU, and the LLM expansion's dry run) are a
chain of their own: nothing else reads what they make.

Commands run from a folder beside a copy of ../shared/data (so the Tour's relative paths hold).
Nothing is made for the user: the run file `my_model.trec`, the config `toolex.toml`, the labels
file `my_labels.csv` and the candidate lists `elsewhere.parquet` come from the Tour's own commands
(an `export trec-run`, two heredocs and a `toolex sql --out`), which run as a user pastes them.
The one thing outside the Tour is the embedding server its `compat-embed:` URL names: the scripted
server of tests/llm on 127.0.0.1, its URL put in the commands' place. The LLM-judged commands run
with --dry-run, as the Tour writes them, and need no key."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported when called, once tests/ is on the path
    from llm.scripted_server import ScriptedServer

ROOT = Path(__file__).resolve().parents[2]
TOUR = ROOT / "docs" / "tour.md"  # the Tour page of the documentation site
TOOLEX = str(Path(sys.executable).with_name("toolex"))
HEREDOC = re.compile(r"<<\s*'?(\w+)'?")
EMBED_URL = "http://127.0.0.1:8000"  # the embedding server the Tour's commands name
# One command's deadline: a bound on a hang, not a measurement (the slowest takes a minute).
COMMAND_TIMEOUT = 900

CHAINS = ("toolret", "toolret-models", "toolink", "stabletoolbench")


def tour() -> list[str]:
    """The Tour's shell commands in order (every ```bash block of docs/tour.md): continuation
    lines joined, comments dropped, and a heredoc (`cat > f <<'EOF'` ... `EOF`) kept whole as
    one command."""
    section = TOUR.read_text(encoding="utf-8")
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


def chains_of(command: str) -> set[str]:
    """The chains a Tour command runs in (what it reads decides: the benchmark it names, the
    files and expansions that earlier commands of that chain make)."""
    if command.startswith("toolex load toolret"):
        return set(CHAINS)  # the shipped judge labels need toolret beside StableToolBench
    if command.startswith("cat > toolex.toml"):
        return {"toolret-models", "stabletoolbench"}  # the two --dry-run commands read it
    stabletoolbench = ("stabletoolbench", "my_labels.csv", "ann-2024", "judges eval", "--show")
    if any(word in command for word in stabletoolbench) or "FROM combinations" in command:
        return {"stabletoolbench"}
    if any(word in command for word in ("--task toolink", "elsewhere", "toolex ledger")):
        return {"toolink"}
    if EMBED_URL in command or "--expansion llm" in command:
        return {"toolret-models"}
    return {"toolret"}


def chain(name: str) -> list[str]:
    """The commands of one chain, in the Tour's order."""
    return [c for c in tour() if name in chains_of(c)]


def run_chain(name: str, shared_data: Path, tmp_path: Path, server_url: str | None) -> Path:
    """Run chain ``name`` in a fresh folder and store; returns the folder. Every command exits
    0, prints no error, and no table it prints is meaningless (empty, or old = new everywhere)."""
    commands = chain(name)
    work = tmp_path / "main"
    work.mkdir()
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "data").symlink_to(shared_data)
    env = os.environ | {"TOOLEX_DB": str(work / "toolex.duckdb")}
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TOOLEX_COMPAT_API_KEY"):
        env.pop(key, None)
    ran = []
    for command in commands:
        if HEREDOC.search(command):  # a file the Tour writes: run as pasted into a shell
            done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True,
                                  text=True, timeout=COMMAND_TIMEOUT)  # fmt: skip
            assert done.returncode == 0, f"{command}\n{done.stderr}"
            ran.append(command)
            continue
        if EMBED_URL in command:
            assert server_url, f"{command} needs the scripted embedding server"
            command_run = command.replace(EMBED_URL, server_url)
        else:
            command_run = command
        args = shlex.split(command_run)
        stdout_file = None
        if ">" in args:
            stdout_file = work / args[args.index(">") + 1]
            args = args[: args.index(">")]
        assert args[0] == "toolex", command
        done = toolex(args[1:], work, env)
        ran.append(command)
        assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
        assert "error:" not in done.stderr and "Traceback" not in done.stderr, command
        assert "degenerate expansion" not in done.stderr, f"{command}\n{done.stderr}"
        assert "(0 rows)" not in done.stdout, f"{command} printed an empty table"
        if stdout_file is not None:
            stdout_file.write_text(done.stdout, encoding="utf-8")
            assert done.stdout.count("\n") > 1, f"{command} wrote nothing"
        check_meaning(args[1:], done.stdout, work, env)
    assert ran == commands  # every command of the chain ran, none skipped
    return work


def toolex(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLEX, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT
    )


def check_meaning(args: list[str], stdout: str, work: Path, env: dict[str, str]) -> None:
    """A table that says nothing is a failure too: eval where new = old everywhere, stats
    with no valid combination, a dry run with no stage."""
    if args[0] == "eval" and "--compare" not in args and "--format" not in args:
        as_json = toolex([*args, "--format", "json"], work, env)
        rows = json.loads(as_json.stdout)
        assert any(r["gain"] > 0 for r in rows if r.get("gain") is not None), args
    if args[0] == "stats":
        as_json = toolex([*args, "--format", "json"], work, env)
        assert json.loads(as_json.stdout)[0]["valid_combos"] > 0, args
    if args[0] == "expand" and "--dry-run" in args:
        assert "total" in stdout and "openai:gpt-4o" in stdout, stdout


def scripted_server() -> ScriptedServer:
    """The scripted embedding server of tests/llm, with hashed bag-of-words vectors wide enough
    to rank about as a lexical model does."""
    sys.path.insert(0, str(ROOT / "tests"))
    from llm.scripted_server import ScriptedServer

    server = ScriptedServer()
    server.embeddings.dim = 1024
    return server
