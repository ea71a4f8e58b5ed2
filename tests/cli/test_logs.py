"""Logging is set up when Python's ``logging`` is first imported (toolex.cli.logs): a command
that never logs does not load it, and one whose library imports it gets the same set-up as when
the CLI imported it first (a redacted root handler at WARNING, the HTTP clients' loggers at
WARNING, a later ``basicConfig(level=INFO)`` doing nothing)."""

from __future__ import annotations

import subprocess
import sys

SET_UP = """
import sys
from toolex.cli import _own_logging
from toolex.cli.progress import CHATTY_LOGGERS, quiet_library_logs
_own_logging()
quiet_library_logs()
print("before", "logging" in sys.modules)
import logging  # as a library's import would
root = logging.getLogger()
print("handlers", [type(h).__name__ for h in root.handlers], logging.getLevelName(root.level))
print("chatty", {logging.getLevelName(logging.getLogger(n).level) for n in CHATTY_LOGGERS})
print("loader", type(logging.__loader__).__name__, type(logging.__spec__.loader).__name__)
print("finders", [type(f).__name__ for f in sys.meta_path if "toolex" in type(f).__module__])
logging.basicConfig(level=logging.INFO)
print("after basicConfig", logging.getLevelName(root.level), len(root.handlers))
logging.getLogger("lib").warning("key sk-ant-api03-%s in a URL", "a" * 40)
"""


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )


def test_logging_imported_later_gets_the_clis_set_up() -> None:
    done = _run(SET_UP)
    assert done.stdout.splitlines() == [
        "before False",
        "handlers ['RedactedStderr'] WARNING",
        "chatty {'WARNING'}",
        "loader SourceFileLoader SourceFileLoader",
        "finders []",
        "after basicConfig WARNING 1",
    ]
    assert done.stderr == "lib: WARNING: key <key hidden> in a URL\n"


def test_help_and_a_command_that_logs_nothing_never_load_logging() -> None:
    probe = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from toolex.cli import _own_logging, cli\n"
        "_own_logging()\n"
        "assert 'logging' not in sys.modules, 'loaded before the command'\n"
        "r = CliRunner().invoke(cli, ['--help'])\n"
        "assert r.exit_code == 0, r.output\n"
        "r = CliRunner().invoke(cli, ['eval', '--help'])\n"
        "assert r.exit_code == 0, r.output\n"
        "print('logging' in sys.modules)\n"
    )
    assert _run(probe).stdout.strip() == "False"


def test_set_ups_run_at_once_when_logging_is_already_loaded() -> None:
    import logging

    from toolex.cli.logs import when_imported

    ran: list[str] = []
    when_imported(lambda: ran.append(logging.__name__))
    assert ran == ["logging"]
