"""The public surface: ``toolex.__all__`` is what loads lazily, each name is documented, and
``import toolex`` loads none of the heavy packages (the CLI's start-up depends on it)."""

from __future__ import annotations

import inspect
import subprocess
import sys

import toolex

HEAVY = ("duckdb", "lancedb", "pyarrow", "pandas", "numpy", "click")


def test_import_toolex_loads_no_heavy_package() -> None:
    code = f"import sys, toolex; toolex.__all__; print([m for m in {HEAVY!r} if m in sys.modules])"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "[]"


def test_all_is_the_lazy_table_and_each_name_resolves_documented() -> None:
    assert toolex.__all__ == ["__version__", *toolex._EXPORTS]
    assert toolex.__all__[1:] == sorted(toolex.__all__[1:])
    for name in toolex.__all__[1:]:
        value = getattr(toolex, name)
        assert inspect.getdoc(value), name
        if inspect.isfunction(value):  # Google style: arguments and returns named
            doc = inspect.getdoc(value) or ""
            assert value.__module__.startswith("toolex.api."), name
            if len(inspect.signature(value).parameters) > 1 and name != "sql_df":
                assert "Args:" in doc, name
    assert toolex.open.__name__ == "open_store"
    assert set(dir(toolex)) >= set(toolex.__all__)


def test_unknown_attribute_is_an_attribute_error() -> None:
    try:
        toolex.nothing_here  # noqa: B018
    except AttributeError as exc:
        assert "nothing_here" in str(exc)
    else:
        raise AssertionError("no AttributeError")


def test_errors_are_the_ones_the_cli_prints() -> None:
    from toolex import errors

    for name in ("ToolexError", "InputError", "StoreError", "NotFoundError", "NoOutcomeError"):
        assert getattr(toolex, name) is getattr(errors, name)
        assert issubclass(getattr(toolex, name), errors.ToolexError)
