"""Every wait on a process in the tests has its own deadline (issue 34): a hung child fails its
test within minutes instead of holding an xdist worker until the suite's 30-minute timeout.

Read from the tests' source: a ``subprocess`` call without ``timeout=`` and a ``.wait()`` or
``.communicate()`` with no deadline are refused, wherever they are written, so a new test
cannot bring an unbounded wait back."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SUBPROCESS_CALLS = {"run", "call", "check_call", "check_output"}
WAITS = {"wait", "communicate"}

# Waits that are not on a process, each with why it needs no deadline.
NOT_PROCESS_WAITS = {
    # the scripted server's idle handler blocks its own daemon thread, never a test
    ("llm/scripted_server.py", "threading.Event().wait()"),
}


def unbounded(path: Path, root: Path = TESTS) -> list[str]:
    """The calls in ``path`` that wait on a process with no deadline, as ``file:line: source``
    (``file`` relative to ``root``)."""
    found = []
    rel = path.relative_to(root).as_posix()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, owner = node.func.attr, ast.unparse(node.func.value)
        timed = any(k.arg == "timeout" for k in node.keywords)
        if name in SUBPROCESS_CALLS and owner == "subprocess":
            bounded = timed
        elif name in WAITS:
            bounded = timed or bool(node.args) or (rel, ast.unparse(node)) in NOT_PROCESS_WAITS
        else:
            continue
        if not bounded:
            found.append(f"{rel}:{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_every_process_wait_has_a_deadline() -> None:
    found = [hit for path in sorted(TESTS.rglob("*.py")) for hit in unbounded(path)]
    assert found == []


def test_the_check_finds_an_unbounded_wait(tmp_path: Path) -> None:
    """The check can fail: a file with each kind of unbounded wait is caught, line by line."""
    sample = tmp_path / "_deadline_sample.py"
    sample.write_text(
        "import subprocess\n"
        "subprocess.run(['true'])\n"
        "subprocess.run(['true'], timeout=5)\n"
        "child = subprocess.Popen(['true'])\n"
        "child.wait()\n"
        "child.wait(timeout=5)\n"
        "child.communicate()\n"
    )
    assert [hit.split(": ")[0] for hit in unbounded(sample, tmp_path)] == [
        "_deadline_sample.py:2",
        "_deadline_sample.py:5",
        "_deadline_sample.py:7",
    ]
