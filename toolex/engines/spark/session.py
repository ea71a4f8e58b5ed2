"""A Spark session for toolex: pyspark from the ``[spark]`` extra, a Java to run it on, local by
default (``local[*]``: every core of this machine) or a cluster's master URL.

What is missing is said before anything starts: pyspark (how to install the extra) and Java
(Spark's JVM; Spark 4 needs Java 17 or newer), each with what to do about it. The extra asks for
pyspark 4: Spark 3.5 refuses array parameters (``[INVALID_SQL_ARG]`` for the run ids), and values
are bound, never written into the SQL.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import warnings
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from toolex.errors import ToolexError

if TYPE_CHECKING:  # pyspark is an optional extra: imported when a session starts
    from pyspark.sql import SparkSession

LOCAL = "local[*]"
INSTALL = "pip install 'toolex[spark]'"
# What a session on this machine needs to be quiet and quick. No web UI or progress bars on
# stderr. The driver is its own executor and must reach itself at the loopback address (a
# container may not route its host name's address back to itself). Only the quick JIT tier and
# the serial collector: a toolex session lives for seconds to minutes, and on two cores the
# optimising compiler's threads took the CPU from the query (session start 20-33 s -> 10-16 s,
# a demo eval about a third faster, measured under load). Spark's own logging at errors only
# (log4j2.properties beside this file), so stderr holds toolex's lines. A cluster keeps its own
# settings (spark-defaults.conf, --spark-conf).
LOCAL_CONF = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.driver.host": "127.0.0.1",
    "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC "
    f"-Dlog4j2.configurationFile={Path(__file__).with_name('log4j2.properties').as_uri()}",
}


def local_conf(master: str) -> dict[str, str]:
    """:data:`LOCAL_CONF` plus two shuffle partitions per core of ``local[N]`` (Spark's 200
    are meant for a cluster: planning 200 tasks per shuffle costs seconds on two cores, for
    inputs of a few megabytes), and half the machine's memory for the one JVM, which is driver
    and executor at once (Spark's 1 GB default ran out aggregating 10x ToolEq)."""
    count = re.match(r"local\[(\d+)", master)  # local[N] and local[N, maxFailures]
    cores = int(count.group(1)) if count else 1 if master == "local" else os.cpu_count() or 1
    try:
        memory_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**21  # half, MB
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows): Spark's 1 GB
        memory_mb = 0
    return {
        **LOCAL_CONF,
        "spark.sql.shuffle.partitions": str(2 * cores),
        "spark.driver.memory": f"{max(memory_mb, 1024)}m",
    }


def require_pyspark() -> ModuleType:
    """The pyspark module, or an error saying how to install it."""
    try:
        import pyspark
        import pyspark.sql  # noqa: F401
    except ImportError as exc:
        raise ToolexError(
            f"--engine spark needs pyspark, an optional extra of toolex: {INSTALL}"
        ) from exc
    return pyspark


def java() -> tuple[str, int]:
    """(path, major version) of the Java that Spark will start: $JAVA_HOME/bin/java when
    JAVA_HOME is set (as Spark's launcher does), else ``java`` on PATH."""
    home = os.environ.get("JAVA_HOME")
    path = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    how = (
        "install a Java runtime, 17 or newer (e.g. `apt-get install openjdk-17-jre-headless` "
        "or https://adoptium.net), and put it on PATH or set JAVA_HOME"
    )
    if not path or not Path(path).is_file():
        where = f"JAVA_HOME={home} has no bin/java" if home else "no `java` on PATH"
        raise ToolexError(f"Spark runs on Java, and none was found ({where}): {how}")
    try:
        done = subprocess.run([path, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolexError(f"Spark runs on Java, and {path} does not start ({exc}): {how}") from exc
    # `java -version` writes e.g. 'openjdk version "17.0.15"' or '"1.8.0_392"' to stderr.
    match = re.search(r'version "(\d+)(?:\.(\d+))?', done.stderr + done.stdout)
    if done.returncode != 0 or not match:
        raise ToolexError(f"Spark runs on Java, and `{path} -version` failed: {how}")
    major = int(match.group(1))
    major = int(match.group(2) or 0) if major == 1 else major  # "1.8" is Java 8
    return path, major


def check_runtime() -> ModuleType:
    """pyspark, after checking that a Java it can run on is installed (Spark 4 needs 17)."""
    pyspark = require_pyspark()
    path, major = java()
    if major < 17:
        raise ToolexError(
            f"pyspark {pyspark.__version__} needs Java 17 or newer; {path} is Java {major}: "
            "install Java 17 and set JAVA_HOME to it"
        )
    return pyspark


def start(master: str = LOCAL, conf: Mapping[str, str] | None = None) -> tuple[SparkSession, bool]:
    """(SparkSession, started): the session of this process if one is running (a test's,
    a notebook's), else a new one on ``master``. ``started`` says whether it is new, i.e.
    whether the caller should stop it."""
    check_runtime()
    from pyspark.sql import SparkSession

    running = SparkSession.getActiveSession()
    if running is not None:
        return running, False
    builder = SparkSession.builder.master(master).appName("toolex")
    local = master.startswith("local")
    if local:  # else Spark's launcher warns that the host name resolves to a loopback address
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    settings = {**(local_conf(master) if local else {}), **(conf or {})}
    for key, value in settings.items():
        builder = builder.config(key, value)
    try:
        with warnings.catch_warnings():
            # pyspark imports its test helpers on the way, which warn about pandas 3; toolex
            # moves rows as Arrow, never through pandas.
            warnings.simplefilter("ignore", FutureWarning)
            session = builder.getOrCreate()
    except Exception as exc:  # the JVM did not start, or the master is unreachable
        first = next((ln for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
        raise ToolexError(f"Spark did not start on {master}: {first.strip()[:500]}") from exc
    if not local:  # a local session logs errors only (log4j2.properties) from the start
        session.sparkContext.setLogLevel("ERROR")  # Spark's INFO/WARN would bury toolex's lines
    return session, True
