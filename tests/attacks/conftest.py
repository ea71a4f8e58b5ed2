"""Fixtures for the attack suite: a store holding a small benchmark, its content digest, and
the real `toolex` entry point run in-process (``main()``, where errors become messages)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from processes import wait_pid

from toolex.loaders import load_plain
from toolex.store import Store

DATA = Path(__file__).resolve().parents[1] / "data"
PLAIN = DATA / "plain"


def digest(path: str | Path) -> dict[str, tuple[int, int]]:
    """(rows, hash of every row) per table: equal digests mean an unchanged store."""
    with Store.open(path, read_only=True) as store:
        tables = [r["table_name"] for r in store.rows("store/41_tables.sql")]
        return {
            t: tuple(store.rows("store/42_read_table.sql", {"table": t})[0].values())
            for t in tables
        }


def _store_bytes(path: str | Path) -> dict[str, bytes | None]:
    """The bytes of the store, its write-ahead log and its commit record: all an open reads."""
    files = (Path(f"{path}{suffix}") for suffix in ("", ".wal", ".commits"))
    return {str(f): f.read_bytes() if f.is_file() else None for f in files}


class Kept:
    """A store as it was, for attacks that run many refused commands on it: ``changed()`` is
    ``digest(path) != digest before``, but reads the tables only when a byte of the store, its
    log or its commit record differs (equal bytes hold equal rows; most refusals touch none,
    and the digest's 30 table reads after each command were most of such tests' CPU)."""

    def __init__(self, path: str | Path) -> None:
        self.path, self.files, self.rows = path, _store_bytes(path), digest(path)

    def changed(self) -> bool:
        return _store_bytes(self.path) != self.files and digest(self.path) != self.rows


def plain_store(path: Path) -> Path:
    """A new store file at ``path`` holding the plain fixture benchmark ``plain``."""
    with Store.open(path) as store:
        load_plain(
            store,
            PLAIN / "items.jsonl",
            PLAIN / "queries.jsonl",
            PLAIN / "qrels.jsonl",
            name="plain",
        )
    return path


@pytest.fixture(scope="session")
def plain_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plain benchmark's store, loaded once per worker (a new store and a load: 0.11 CPU-s;
    a copy: 0.001), for ``bench_db`` to copy."""
    return plain_store(tmp_path_factory.mktemp("plain-template") / "s.duckdb")


@pytest.fixture
def bench_db(plain_template: Path, tmp_path: Path) -> str:
    """A store file of the test's own holding the plain fixture benchmark ``plain``: a copy of
    the template with its commit record, so it opens as the store its load left (the tests of
    a first open use paths of their own)."""
    path = tmp_path / "s.duckdb"
    for suffix in ("", ".commits"):
        made = Path(f"{plain_template}{suffix}")
        if made.exists():
            shutil.copyfile(made, f"{path}{suffix}")
    return str(path)


@dataclass
class Ran:
    code: int
    out: str
    err: str
    exception: BaseException | None  # escaped main(): a traceback for the user

    @property
    def outcome(self) -> str:
        if self.exception is not None or "Traceback (most recent call last)" in self.err:
            return "traceback"
        return "correct result" if self.code == 0 else "clean error"


@pytest.fixture
def toolex(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Ran]:
    """Run ``toolex ARGS...`` through toolex.cli.main in this process."""
    from toolex.cli import main

    def run(*args: str) -> Ran:
        capsys.readouterr()
        monkeypatch.setattr(sys, "argv", ["toolex", *args])
        code, escaped = 0, None
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException as exc:  # noqa: BLE001 - exactly what the attack looks for
            escaped, code = exc, 1
        out, err = capsys.readouterr()
        return Ran(code, out, err, escaped)

    return run


@cache  # once per worker
def preload_cli() -> None:
    """Import the CLI's modules (and the libraries most commands import) in this process, once,
    before it forks: a child inherits them instead of importing them again, which was half the
    CPU of a child running `check`, `sql`, `info` or `export` (the attack files fork hundreds).
    Importing is all: no command runs, nothing a child reads at run time (the environment, the
    arguments) is read here."""
    import importlib
    import pkgutil

    import toolex.cli

    for module in pkgutil.walk_packages(toolex.cli.__path__, "toolex.cli."):
        importlib.import_module(module.name)
    # DuckDB's Python package too: the store now loads only its engine (toolex.store.duck), so
    # without this every child that reads Arrow imported the package after the fork, in a copy
    # of a worker with DuckDB's threads running; one such child of `retrieve` died with nothing
    # on stderr in a CI run (not reproduced alone). The children inherit it, as before.
    for name in ("duckdb", "pyarrow", "pyarrow.parquet", "sqlglot", "rich.console", "rich.table"):
        importlib.import_module(name)


@cache  # once per worker
def preload_llm() -> None:
    """preload_cli, then what an LLM-judged `expand` imports when it runs: the pipeline and the
    providers' SDKs (``import anthropic`` is ~1.2 CPU-s, ``import openai`` ~0.4: most of a
    forked child's CPU against a scripted server), and pandas, which DuckDB imports when the
    ledger registers its Arrow batch (~0.2). Imports only, as in preload_cli; neither SDK
    starts a thread or reads the environment when imported (a client does, in the child)."""
    import importlib

    preload_cli()
    for name in ("openai", "anthropic", "pandas", "toolex.api.expand", "toolex.pipeline.runner",
                 "toolex.judges.llm", "toolex.llm.executor"):  # fmt: skip
        importlib.import_module(name)


def run_forked(*args: str, file_limit: int | None = None) -> Ran:
    """``toolex ARGS...`` through main() in a forked child: a DuckDB abort or segfault on a
    damaged file kills the child, not the test run, and counts as a crash (a traceback).
    ``file_limit`` caps the bytes any file may grow to (RLIMIT_FSIZE): a full disk."""
    import os
    import tempfile
    import traceback

    preload_cli()
    with tempfile.TemporaryDirectory(prefix="toolex-attack-") as tmp:
        out_path, err_path = Path(tmp, "out"), Path(tmp, "err")
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 70
            try:
                with open(out_path, "w") as out, open(err_path, "w") as err:
                    os.dup2(out.fileno(), 1)
                    os.dup2(err.fileno(), 2)
                    sys.stdout, sys.stderr = out, err
                    sys.argv = ["toolex", *args]
                    if file_limit is not None:
                        import resource
                        import signal

                        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG, not a kill
                        resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
                    try:
                        from toolex.cli import main

                        main()
                        code = 0
                    except SystemExit as exc:
                        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
                    except BaseException:  # noqa: BLE001
                        traceback.print_exc()
                        code = 70
                    out.flush()
                    err.flush()
            finally:
                os._exit(code)
        status = wait_pid(pid)  # a hung child (a lock, a loop) fails its test, bounded
        printed = out_path.read_text(errors="replace"), err_path.read_text(errors="replace")
    if os.WIFSIGNALED(status):
        return Ran(1, *printed, RuntimeError(f"killed by signal {os.WTERMSIG(status)}"))
    code = os.WEXITSTATUS(status)
    escaped = RuntimeError("uncaught exception") if code == 70 else None
    return Ran(code, *printed, escaped)


from retrieval.conftest import hash_embedder, lib_store  # noqa: E402, F401  (fixtures)
