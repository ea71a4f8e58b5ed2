"""`toolex --help` and the BM25 path import no heavy library (lancedb, fastembed, matplotlib,
textual, pyarrow, DuckDB): the command list is read from the command modules' source. A
command's own `--help` and its shell completion load its module, which defers the libraries
its work needs to the work (issue 34); `toolex eval` never loads pandas. No test here times
anything: benchmarks/bench_startup.py measures the start-up against pytrec_eval's."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

HEAVY = ("pyarrow", "duckdb", "lancedb", "fastembed", "matplotlib", "textual", "wordllama")
# Loaded by the named commands' modules for the constants their options list (run levels and
# formats beside the run-file readers, SQL dialects beside sqlglot): not yet deferred.
HEAVY_AT_HELP = {"runs", "index", "retrieve", "sql"}
# Every library a command's --help or completion must not load, beyond HEAVY.
LIBRARIES = (*HEAVY, "numpy", "pandas", "sqlglot", "bm25s", "openai", "anthropic", "httpx", "rich")


def _imported(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=300
    )
    lines = out.stdout.strip().splitlines()
    return [m for m in (lines[-1] if lines else "").split(",") if m]


def test_help_imports_no_heavy_library() -> None:
    code = (
        "import contextlib, io\n"
        "from click.testing import CliRunner\n"
        "from toolex.cli import cli\n"
        "r = CliRunner().invoke(cli, ['--help'])\n"
        "assert r.exit_code == 0 and 'retrieve' in r.output\n"
    )
    assert _imported(code) == []


def test_the_command_list_is_what_click_would_print_from_the_commands() -> None:
    from click.testing import CliRunner

    from toolex.cli import COMMANDS, cli

    out = CliRunner().invoke(cli, ["--help"], terminal_width=100).output
    for name, target in COMMANDS.items():
        module, attr = target.split(":")
        command = getattr(__import__(module, fromlist=[attr]), attr)
        short = command.get_short_help_str(100 - 6 - max(map(len, COMMANDS)))
        assert f"  {name}" in out and short.split()[0] in out


def test_each_command_is_read_from_its_slice_of_the_source_as_from_the_whole() -> None:
    """`toolex --help` parses each command function from its first decorator to its docstring's
    end: the same decorators and docstring as the whole module's parse gives."""
    import ast
    import importlib.util

    from toolex.cli import COMMANDS, _command_node

    for target in COMMANDS.values():
        module, attr = target.split(":")
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None
        source = Path(spec.origin).read_text(encoding="utf-8")
        whole = [
            n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == attr
        ][0]
        node = _command_node(source, attr)
        assert node is not None and ast.dump(node.decorator_list[0]) == ast.dump(
            whole.decorator_list[0]
        ), target
        assert len(node.decorator_list) == len(whole.decorator_list), target
        assert ast.get_docstring(node) == ast.get_docstring(whole), target


def test_the_bm25_path_never_imports_the_vector_store() -> None:
    code = "import toolex.retrieval.search, toolex.pipeline.runner\n"
    imported = _imported(code)
    assert "lancedb" not in imported and "fastembed" not in imported


def test_bm25_loads_neither_numba_scipy_nor_an_http_client() -> None:
    """bm25s probes numba and scipy on import for backends toolex never selects (0.36 CPU-s
    where they are installed, as ranx installs numba): the BM25 path hides them for that import
    only, keeps bm25s on its numpy backends, and a later `import numba` still works. The
    retrievers' module loads the HTTP client of the embedding endpoints only for one of them."""
    loaded = ("numba", "scipy", "toolex.llm.embeddings", "httpx2")
    probe = (
        "import sys, toolex.retrieval.search, toolex.retrieval.bm25 as b\n"
        f"print(','.join(m for m in {loaded!r} if m in sys.modules))\n"
        "index = b.bm25s.BM25(method=b.METHOD, k1=b.K1, b=b.B)\n"
        "print(index.backend, index.csc_backend)\n"
        "import numba, scipy.sparse\n"
        "print('importable')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.splitlines() == ["", "numpy numpy", "importable"]


EACH_HELP = """
import sys
from click.testing import CliRunner
from toolex.cli import COMMANDS, cli
libraries = {libraries!r}
for name in COMMANDS:
    if name in {skip!r}:
        continue
    done = CliRunner().invoke(cli, [name, "--help"])
    assert done.exit_code == 0, (name, done.output)
    loaded = [m for m in libraries if m in sys.modules]
    if loaded:
        print(name, ",".join(loaded))
        break
"""


def test_each_command_help_loads_no_heavy_library() -> None:
    """`toolex eval --help` (and what completion loads: the command's module and its options)
    starts no DuckDB, pyarrow, numpy, sqlglot or LLM client; the first command that does is
    named."""
    code = EACH_HELP.format(libraries=LIBRARIES, skip=HEAVY_AT_HELP)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == ""


def test_completion_of_a_command_option_loads_no_heavy_library(tmp_path: Path) -> None:
    """Tab after `toolex eval --b`: click's completion protocol, as the shell script calls it."""
    env = {
        "_TOOLEX_COMPLETE": "bash_complete",
        "COMP_WORDS": "toolex eval --b",
        "COMP_CWORD": "2",
    }
    code = (
        "import os, sys\n"
        f"os.environ.update({env!r})\n"
        "from toolex.cli import cli\n"
        "try:\n    cli.main(prog_name='toolex')\nexcept SystemExit:\n    pass\n"
        f"print('LOADED', ','.join(m for m in {LIBRARIES!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
        cwd=tmp_path,
    )  # fmt: skip
    assert "--benchmark" in out.stdout and "--by" in out.stdout  # the completions themselves
    assert out.stdout.strip().splitlines()[-1] == "LOADED"


BUILD = """
import sys
sys.path.insert(0, {tests!r})
from metrics.metrics_fixtures import build_random
from toolex.store import Store
store = Store.open({db!r})
build_random(store.con, seed=3, n_queries=30, n_runs=1)
store.close()
"""
LATE = ("pandas", "matplotlib", "lancedb", "sqlglot")
EVAL_RUN = """
import sys
from toolex.cli import main
sys.argv = ["toolex", "eval", *{argv!r}, "-q"]
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
print("LOADED", ",".join(m for m in {late!r} if m in sys.modules))
"""


# What `toolex eval` on a store never needs: the paired comparison (--compare only), the run-file
# readers and the loaders (--run-file only), the progress bars (a status line is all it draws).
STORE_EVAL_LATE = ("toolex.reports.compare", "toolex.runs", "toolex.loaders", "rich.progress")
# DuckDB's Python package, where its engine ships apart (2.x): rows are read through the engine
# alone, the package's relation layer is 0.1 CPU-s of imports (toolex.store.duck).
ENGINE_APART = ("duckdb",) if importlib.util.find_spec("_duckdb") else ()


def test_eval_never_loads_pandas(tmp_path: Path) -> None:
    """pyarrow imports pandas to build a table from Python lists: `toolex eval` on a store has
    DuckDB build its one table and read it in place, so it loads neither pandas nor pyarrow
    (nor numpy, which pyarrow brings): 0.35 CPU-s of a 0.5 s process."""
    from pathlib import Path

    tests, db = str(Path(__file__).resolve().parents[1]), str(tmp_path / "t.duckdb")
    late = (*LATE, "pyarrow", "numpy", *STORE_EVAL_LATE, *ENGINE_APART)
    argv = ["--db", db, "--all-runs"]
    for code in (BUILD.format(tests=tests, db=db), EVAL_RUN.format(argv=argv, late=late)):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path
        )
        assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "LOADED"


def test_eval_of_run_files_never_loads_pandas(tmp_path: Path) -> None:
    """`toolex eval --run-file --qrels-file` reads the files with pyarrow and numpy, whose
    conversions of Python lists and numpy arrays import pandas: the loader lays strings and
    ints into Arrow's buffers, the run reader moves numpy arrays through theirs
    (toolex.runs.codes.as_arrow/as_numpy); an escaped id (%20) and a second query take the
    paths those conversions serve."""
    (tmp_path / "run.trec").write_text(
        "q1 Q0 a%20b 1 2.5 r\nq1 Q0 c 2 1.5 r\nq2 Q0 c 1 0.5 r\nq3 Q0 a 1 1 r\n"
    )
    (tmp_path / "qrels.trec").write_text("q1 0 a b 1\nq1 0 c 0\nq2 0 c 2\n".replace("a b", "a%20b"))
    argv = ["--run-file", "run.trec", "--qrels-file", "qrels.trec", "-m", "nDCG@10"]
    # a qrels file holds no expansion: nothing to trust, so neither the trust lines' module nor
    # the judges' (0.05 CPU-s) is loaded
    late = (*LATE, "toolex.reports.trust", "toolex.judges", "toolex.review")
    out = subprocess.run(
        [sys.executable, "-c", EVAL_RUN.format(argv=argv, late=late)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "LOADED"


def test_eval_of_plain_trec_files_never_loads_arrow_or_the_loaders(tmp_path: Path) -> None:
    """Plain TREC files (printable ASCII, no escaped id) scored against a qrels file are read by
    DuckDB into stand-ins of the tables the metric SQL reads (toolex.runs.plain): no pyarrow,
    no numpy (0.12 CPU-s to import), no loader, no run reader, no schema to create."""
    (tmp_path / "run.trec").write_text("q1 Q0 a 1 2.5 r\nq1 Q0 c 2 1.5 r\nq2 Q0 c 1 0.5 r\n")
    (tmp_path / "qrels.trec").write_text("q1 0 a 1\nq1 0 c 0\nq2 0 c 2\n")
    argv = ["--run-file", "run.trec", "--qrels-file", "qrels.trec", "-m", "nDCG@10"]
    late = (
        *LATE, "pyarrow", "numpy", "toolex.loaders", "toolex.runs.formats",
        "toolex.runs.imports", "toolex.runs.trec", *ENGINE_APART,
    )  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-c", EVAL_RUN.format(argv=argv, late=late)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "LOADED"


def test_the_trust_lines_never_load_the_verifiers_rules() -> None:
    """`toolex eval` prints the trust lines (toolex.reports.trust): they read the operating
    points' figures, not the rules or the evidence reader (which bring numpy)."""
    probe = (
        "import sys, toolex.reports.trust\n"
        "print(','.join(m for m in ('toolex.judges.evidence', 'toolex.judges.checks', 'numpy')"
        " if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=300
    )
    assert out.stdout.strip() == ""


def test_the_offline_pipeline_loads_no_http_client() -> None:
    """`toolex demo` and `expand --judge heuristic` call no model: the verifier's confidence reads
    the chat Reply record, which no longer brings the provider modules and httpx2/httpcore2
    (0.1 CPU-s) with it; a client made later still finds them."""
    probe = (
        "import sys, toolex.pipeline.runner, toolex.judges.heuristic, toolex.cli.demo\n"
        "print(','.join(m for m in ('httpx2', 'httpcore2', 'toolex.llm.deadline',"
        " 'toolex.llm.clients.openai_chat', 'toolex.llm.clients.anthropic_chat')"
        " if m in sys.modules))\n"
        "from toolex.llm.clients import AnthropicChat, make_client\n"
        "print(AnthropicChat.__name__, make_client.__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.splitlines() == ["", "AnthropicChat make_client"]
