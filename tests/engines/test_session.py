"""What `--engine spark` says when something it needs is missing, before any JVM starts: pyspark
(how to install the extra), Java (none, or too old), a cluster without a shared inputs folder."""

from __future__ import annotations

import builtins
import os
import stat
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from toolex.cli import cli
from toolex.engines import open_engine
from toolex.engines.spark import session
from toolex.errors import ToolexError
from toolex.store import Store


@pytest.fixture
def no_pyspark(monkeypatch: pytest.MonkeyPatch) -> None:
    """Imports of pyspark fail, as without the [spark] extra."""
    real = builtins.__import__

    def refuse(name: str, *args: Any, **kwargs: Any) -> ModuleType:
        if name == "pyspark" or name.startswith("pyspark."):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    for name in [m for m in sys.modules if m == "pyspark" or m.startswith("pyspark.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(builtins, "__import__", refuse)


@pytest.fixture
def empty_db(tmp_path: Path) -> str:
    """A store with nothing in it: the engine is opened after the store."""
    path = tmp_path / "empty.duckdb"
    Store.open(path).close()
    return str(path)


def fake_java(tmp_path: Path, version: str) -> str:
    """A JAVA_HOME whose bin/java reports ``version`` as `java -version` does (on stderr)."""
    java = tmp_path / "bin" / "java"
    java.parent.mkdir(parents=True)
    java.write_text(f"#!/bin/sh\necho 'openjdk version \"{version}\" 2024-01-16' >&2\n")
    java.chmod(java.stat().st_mode | stat.S_IEXEC)
    return str(tmp_path)


def test_without_pyspark_the_error_says_how_to_install_it(no_pyspark: None) -> None:
    with pytest.raises(ToolexError, match=r"pip install 'toolex\[spark\]'"):
        session.require_pyspark()


def test_eval_without_pyspark_exits_with_the_install_hint(no_pyspark: None, empty_db: str) -> None:
    args = ["eval", "--db", empty_db, "--all-runs", "--engine", "spark"]
    result = CliRunner().invoke(cli, args)
    assert isinstance(result.exception, ToolexError)  # `toolex` prints it as "error: ..."
    assert "pip install 'toolex[spark]'" in str(result.exception)


def test_no_java_is_named_with_what_to_do(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ToolexError, match=r"no `java` on PATH.*install a Java runtime, 17"):
        session.java()
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    with pytest.raises(ToolexError, match="JAVA_HOME=.* has no bin/java"):
        session.java()


def test_java_versions_are_read_old_and_new(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("JAVA_HOME", fake_java(tmp_path / "new", "17.0.15"))
    assert session.java()[1] == 17
    monkeypatch.setenv("JAVA_HOME", fake_java(tmp_path / "old", "1.8.0_392"))
    assert session.java()[1] == 8
    with pytest.raises(ToolexError, match="needs Java 17 or newer.*is Java 8"):
        session.check_runtime()


def test_a_cluster_needs_a_shared_inputs_folder() -> None:
    with (
        pytest.raises(ToolexError, match="--spark-inputs DIR"),
        open_engine("spark", master="spark://head:7077"),
    ):
        pass


def test_spark_options_go_with_the_spark_engine() -> None:
    with pytest.raises(ToolexError, match="go with --engine spark"), open_engine(master="local"):
        pass


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--spark-conf", "nokey"], "KEY=VALUE"),
        (["--run-file", __file__], "import the files first"),
    ],
)
def test_eval_refuses_what_spark_cannot_do(empty_db: str, args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["eval", "--db", empty_db, "--engine", "spark", *args])
    assert result.exit_code == 2 and message in result.output


def test_local_sessions_get_two_shuffle_partitions_per_core() -> None:
    assert session.local_conf("local[2]")["spark.sql.shuffle.partitions"] == "4"
    assert session.local_conf("local")["spark.sql.shuffle.partitions"] == "2"
    cores = os.cpu_count() or 1
    assert session.local_conf("local[*]")["spark.sql.shuffle.partitions"] == str(2 * cores)
