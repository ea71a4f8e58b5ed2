"""One Spark session for the whole test session: local[2], four shuffle partitions, no UI.

Starting Spark costs seconds (a JVM), so every test that needs it shares this one, and they all
live in one module (test_spark.py), which pytest-xdist's --dist loadfile keeps on one worker.
Skipped only when Java is absent, and a failure under CI=true, where Java must be present.
"""

from __future__ import annotations

import os

import pytest

from toolex.errors import ToolexError

IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session")
def spark():
    from toolex.engines.spark.session import java, start

    try:
        java()
    except ToolexError as exc:
        if IN_CI:
            pytest.fail(f"CI must have Java for the Spark engine tests: {exc}")
        pytest.skip(str(exc))
    session, started = start("local[2]", {"spark.sql.shuffle.partitions": "4"})
    yield session
    if started:
        session.stop()
