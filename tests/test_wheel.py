"""An installed wheel (not only an editable checkout) finds its sql/ and prompts/ files."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import toolex, toolex.resources as r
from toolex.store import Store
assert "site-packages" in toolex.__file__ or "wheelroot" in toolex.__file__, toolex.__file__
s = Store.memory()
print(r.resource_root("sql"), r.resource_root("prompts"), s.schema_version)
"""


@pytest.mark.slow
def test_wheel_carries_resources_and_works_installed(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = dist.glob("toolex-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "toolex/_resources/sql/schema/001_base.sql" in names
    assert any(n.startswith("toolex/_resources/prompts/") for n in names)
    assert "toolex_tui/__init__.py" in names

    target = tmp_path / "wheelroot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    sql_root, prompts_root, version = out.stdout.split()
    assert sql_root.startswith(str(target)) and prompts_root.startswith(str(target))
    assert int(version) >= 1
