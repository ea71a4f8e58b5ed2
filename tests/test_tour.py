"""The README's Tour, run top to bottom on a fresh store: every command exits 0, prints no
error, and no table it prints is meaningless (empty, or old = new everywhere).

Commands run as the README writes them, from a folder beside a copy of ../shared/data (so the
README's relative paths hold). What a user brings that the README does not make is made here:
the run file `my_model.trec` (the bm25 run, exported), the config `toolex.toml` (the README's
own block), the embedding server the README's `compat-embed:` URL names (the scripted server of
tests/llm on 127.0.0.1, its URL put in the commands' place) and the candidate lists
`elsewhere.trec` (the `dense` expansion's, written as TREC). Excluded: the two commands that need
the user's own verdict labels (`labels import my_labels.csv` and the judges eval on that source);
the LLM-judged commands run with --dry-run, as the README writes them, and need no key."""

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
EMBED_URL = "http://127.0.0.1:8000"  # the embedding server the README's commands name
NEEDS_OWN_LABELS = ("my_labels.csv", "--source ann-2024")

pytestmark = [pytest.mark.slow, pytest.mark.shared_data]


def tour() -> tuple[list[str], str]:
    """The Tour's shell commands in order (continuation lines joined, comments dropped) and its
    TOML block."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Tour")
    section = readme[start : readme.index("\n## ", start)]  # up to the next section
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", section, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split("  #")[0].strip()
            if line and not line.startswith("#"):
                commands.append(line)
    toml = re.search(r"```toml\n(.*?)```", section, re.S)
    assert toml, "the Tour shows the toolex.toml it uses"
    return commands, toml.group(1)


def test_the_tour_lists_what_issue_15_asked_for():
    commands, _ = tour()
    assert any(c.startswith("toolex retrieve") for c in commands)
    assert any(c.startswith("toolex info") for c in commands)
    assert any("--compare" in c for c in commands)


def test_the_readme_tour_runs_top_to_bottom(shared_data, tmp_path):
    sys.path.insert(0, str(ROOT / "tests" / "llm"))
    from scripted_server import ScriptedServer

    with ScriptedServer() as server:
        # hashed bag-of-words vectors wide enough to rank about as a lexical model does
        server.embeddings.dim = 1024
        _run_tour(shared_data, tmp_path, server)
    assert server.count("embeddings") > 0  # the endpoint retriever ran over HTTP


def _run_tour(shared_data, tmp_path, server) -> None:
    commands, toml = tour()
    assert any(EMBED_URL in c for c in commands), "the Tour shows an embedding endpoint"
    work = tmp_path / "main"
    work.mkdir()
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "data").symlink_to(shared_data)
    (work / "toolex.toml").write_text(toml, encoding="utf-8")
    env = os.environ | {"TOOLEX_DB": str(work / "toolex.duckdb")}
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TOOLEX_COMPAT_API_KEY"):
        env.pop(name, None)
    ran = []
    for command in commands:
        if any(marker in command for marker in NEEDS_OWN_LABELS):
            continue
        if "runs import my_model.trec" in command:
            made = _toolex(["export", "trec-run", "--run", "bm25", "--out", "my_model.trec"],
                           work, env)  # fmt: skip
            assert made.returncode == 0, made.stderr
        if "load candidates elsewhere.trec" in command:
            _lists_from_elsewhere(work, env)
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
    assert len(ran) >= len(commands) - len(NEEDS_OWN_LABELS)
    assert (work / "report" / "report.md").is_file()
    assert (work / "expanded.parquet").is_file() and (work / "bm25.run").is_file()


def _lists_from_elsewhere(work: Path, env: dict) -> None:
    """`elsewhere.trec`: the `dense` expansion's candidate lists, as another tool would write
    them (qid <query_id>#<slot>; the references the lists missed are not hits)."""
    from toolex.runs.formats import trec_escape

    sql = (
        "SELECT query_id, slot, item_id, rank, score FROM candidates WHERE expansion = 'dense' "
        "AND score IS NOT NULL ORDER BY query_id, slot, rank"
    )
    done = _toolex(["sql", sql, "--format", "json"], work, env)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert rows, "the dense expansion has candidates"
    lines = [
        f"{trec_escape(r['query_id'])}#{r['slot']} Q0 {trec_escape(r['item_id'])} {r['rank']} "
        f"{r['score']} qwen3-4b"
        for r in rows
    ]
    (work / "elsewhere.trec").write_text("\n".join(lines) + "\n", encoding="utf-8")


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
