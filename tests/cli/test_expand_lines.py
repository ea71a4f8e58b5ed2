"""Issue 26.8: what `toolex expand` writes on stderr, run as a user runs it (a subprocess whose
stderr is no terminal) with an LLM verifier and auditor on the scripted server: each stage's
progress line counts that stage's calls (the audit's line once counted the verifier's too), and
no HTTP client logs a line per call between them (wordllama's import turned the root logger to
INFO, and httpx2 then wrote "HTTP Request: POST ..." for every call)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from llm.llm_support import ScriptedServer, chat_count
from pipeline.fixtures import build

from toolex.store import Store

TOOLEX = str(Path(sys.executable).with_name("toolex"))


def test_stage_lines_count_their_own_calls_and_no_http_line_is_logged(tmp_path: Path) -> None:
    db = str(tmp_path / "x.duckdb")
    with Store.open(db) as store:
        build(store)
    with ScriptedServer() as server:
        config = tmp_path / "toolex.toml"
        config.write_text(
            '[judges]\nverify = "openai:gpt-4o-mini"\naudit = "openai:gpt-4o-mini"\n'
            f'[llm]\nopenai_base_url = "{server.url}/v1"\nmax_in_flight = 2\n',
            encoding="utf-8",
        )
        env = {**os.environ, "OPENAI_API_KEY": "sk-test-openai-5f3a9c"}
        done = subprocess.run(
            [
                TOOLEX,
                "expand",
                "--db",
                db,
                "--benchmark",
                "b",
                "--config",
                str(config),
                "--format",
                "json",
            ],  # fmt: skip
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        calls = chat_count(server)
    assert done.returncode == 0, done.stderr
    assert "HTTP Request" not in done.stderr and "INFO" not in done.stderr, done.stderr
    said = {
        m.group(1): int(m.group(2))
        for m in re.finditer(
            r"^(\w+) b \(.*?\): \d+/\d+ tasks in [\d.]+ s  (\d+) calls", done.stderr, re.M
        )  # fmt: skip
    }
    verify, audit = said["verify"], said["audit"]
    assert verify > 0 and audit > 0 and verify + audit == calls
    rows = {
        m.group(1): int(m.group(2))
        for m in re.finditer(
            r'"stage": "(\w+)",\s+"tasks": \d+,\s+"ok": \d+,\s+"failed": \d+,'
            r'\s+"calls": (\d+)',
            done.stdout,
        )  # fmt: skip
    }
    assert rows["verify"] == verify and rows["audit"] == audit
