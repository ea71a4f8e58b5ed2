"""One Spark session for the whole test session: local[2], four shuffle partitions, no UI.

Starting Spark costs seconds (a JVM), so every test that needs it shares this one, and they all
live in one module (test_spark.py), which pytest-xdist's --dist loadfile keeps on one worker.
Skipped only when Java is absent, and a failure under CI=true, where Java must be present.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from toolex.errors import ToolexError

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    from toolex.engines.spark.session import java, start

    try:
        java()
    except ToolexError as exc:
        if IN_CI:
            pytest.fail(f"CI must have Java for the Spark engine tests: {exc}")
        pytest.skip(str(exc))
    # SparkContext installs its own SIGINT handler (cancel the jobs, then raise); this session
    # outlives test_spark.py on its worker, so the worker's later tests would find that handler
    # where they expect Python's (tests/attacks/test_sql_stops_round2.py saw it in CI).
    handler = signal.getsignal(signal.SIGINT)
    session, started = start("local[2]", {"spark.sql.shuffle.partitions": "4"})
    signal.signal(signal.SIGINT, handler)
    yield session
    if started:
        session.stop()
