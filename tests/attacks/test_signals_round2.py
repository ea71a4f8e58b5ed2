"""Signals during an embedding run, through the installed `toolex` (issue 35.4, issue 37.15):

- SIGTERM killed the process where it stood: up to 2 s of paid vectors (384 of 768 texts) and a
  ledger row were lost, where Ctrl-C lost only the batches in flight. SIGTERM now stops a run as
  Ctrl-C does: every batch the server served is in the embedding cache, every request it got is
  in the ledger, and `toolex` exits 143 with one line saying what was kept.
- A hanging embedding endpoint ignored Ctrl-C until its timeout (300 s for a compatible server):
  Ctrl-C now ends the requests in flight within a fraction of a second.

The server tells the test when it is holding the requests the run now waits on; only then is the
signal sent, so nothing depends on when a signal lands. Every wait is bounded (a process that
does not stop is killed and the test fails), and a test whose signal would be ignored (a process
started with SIGINT ignored, as some launchers do) is skipped with that reason."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from attacks.pacing_server import PacingServer, embeddings_answer
from attacks.tally import Tally
from toolex.loaders import load_plain
from toolex.store import Store

TOOLEX = str(Path(sys.executable).with_name("toolex"))  # the installed entry point
WAIT_S = 120.0  # any bounded wait here: far past what a loaded machine needs
ITEMS = 300  # 10 requests of 32 texts (a compatible server's request size), 2 in flight
# Requests answered before the server holds the rest: a round of two requests goes out at a
# time, so the 6th is held beside the served 5th, and the 7th never goes out.
SERVED = 5
KEPT = (
    "every embedding that came back is in the cache (and every call in the ledger), so a re-run "
    "embeds only what is left"
)


@pytest.fixture
def big_db(tmp_path: Path) -> str:
    """A store whose benchmark has ``ITEMS`` tools, each with its own text."""
    src = tmp_path / "src"
    src.mkdir()
    items = [
        {"id": f"t{i}", "text": f"tool number {i} does task {i * 7 % 31}"} for i in range(ITEMS)
    ]
    (src / "items.jsonl").write_text("\n".join(json.dumps(r) for r in items))
    (src / "queries.jsonl").write_text(json.dumps({"id": "q1", "text": "do task 3"}))
    (src / "qrels.jsonl").write_text(json.dumps({"query_id": "q1", "item_id": "t1"}))
    db = tmp_path / "big.duckdb"
    with Store.open(db) as store:
        load_plain(store, *(src / f"{n}.jsonl" for n in ("items", "queries", "qrels")), name="big")
    return str(db)


def _until(check: Callable[[], bool], what: str, proc: subprocess.Popen[str]) -> None:
    end = time.monotonic() + WAIT_S
    while not check():
        if proc.poll() is not None:
            said = proc.stderr.read() if proc.stderr else ""
            pytest.fail(f"`toolex` ended ({proc.returncode}) before {what}: {said}")
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.05)


def _ignored_at_start(sig: int, pid: int | None = None) -> bool:
    """Whether ``sig`` is ignored in this process (children inherit it) or in ``pid``."""
    if signal.getsignal(sig) == signal.SIG_IGN:
        return True
    try:
        status = Path(f"/proc/{pid}/status").read_text() if pid else ""
    except OSError:
        return False
    mask = next((line.split()[1] for line in status.splitlines() if line.startswith("SigIgn")), "0")
    return bool(int(mask, 16) >> (sig - 1) & 1)


def _signal_when_held(server: PacingServer, db: str, sig: int, held: int) -> tuple[int, str]:
    """Start `toolex retrieve` on ``server``, send ``sig`` once the server holds ``held``
    requests (and has served all it serves), and wait for the process, at most ``WAIT_S``."""
    env = {k: v for k, v in os.environ.items() if k != "TOOLEX_COMPAT_API_KEY"}
    proc = subprocess.Popen(
        [TOOLEX, "retrieve", "--benchmark", "big", "--retriever",
         f"compat-embed:{server.url}/v1#m", "--run", "r", "--db", db],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        _until(
            lambda: server.requests >= (server.hold_after or 0) + held, "the held requests", proc
        )
        _until(lambda: server.served == (server.hold_after or 0), "the served requests", proc)
        if _ignored_at_start(sig, proc.pid):
            pytest.skip(f"{signal.Signals(sig).name} is ignored in this process's children")
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate(timeout=WAIT_S)  # after SIGKILL: it ends
        pytest.fail(f"`toolex retrieve` did not stop within {WAIT_S} s of {sig!r}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=WAIT_S)  # after SIGKILL: it ends
    return proc.returncode, err


def _embed_rows(db: str) -> tuple[set[str], list[tuple[str, str | None]]]:
    with Store.open(db, read_only=True) as store:
        cached = {r["text_hash"] for r in store.user_sql("SELECT text_hash FROM embeddings")
                  .to_pylist()}  # fmt: skip
        ledger = store.user_sql(
            "SELECT status, error FROM llm_calls WHERE stage = 'embed' ORDER BY created_at"
        ).to_pylist()
    return cached, [(r["status"], r["error"]) for r in ledger]


def test_sigterm_keeps_every_served_batch_and_every_request(big_db: str) -> None:
    tally = Tally("signals during a run")
    with PacingServer("stall", embeddings_answer(8), hold_after=SERVED) as server:
        code, err = _signal_when_held(server, big_db, signal.SIGTERM, held=1)
        requests, texts = server.requests, list(server.texts)
    tally.record("SIGTERM after 5 served batches", "clean error" if code == 143 else "traceback")
    assert code == 143, err[-800:]
    assert err.strip().splitlines()[-1] == f"interrupted: run 'r' was not written; {KEPT}"
    cached, ledger = _embed_rows(big_db)
    served = {hashlib.sha256(t.encode()).hexdigest() for t in texts}
    assert len(texts) == SERVED * 32 and served <= cached, len(served - cached)
    assert len(ledger) == requests == SERVED + 1  # every request the server got, once
    assert ledger.count(("ok", None)) == SERVED
    assert ledger.count(("error", "stopped: the run was interrupted")) == 1
    tally.check()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_hanging_endpoint_does_not_outlast_a_stop(big_db: str, sig: signal.Signals) -> None:
    """Nothing is ever answered: the signal ends the requests in flight (the endpoint's own
    deadline is 300 s, far past this test's wait)."""
    tally = Tally("signals during a run")
    with PacingServer("stall", embeddings_answer(8), hold_after=0) as server:
        code, err = _signal_when_held(server, big_db, sig, held=2)
    expected = 130 if sig == signal.SIGINT else 143
    tally.record(f"{sig.name} on a hanging endpoint",
                 "clean error" if code == expected else "traceback")  # fmt: skip
    assert code == expected, err[-800:]
    assert err.strip().splitlines()[-1] == f"interrupted: run 'r' was not written; {KEPT}"
    cached, ledger = _embed_rows(big_db)
    assert cached == set() and ledger == [("error", "stopped: the run was interrupted")] * 2
    tally.check()


def test_sigterm_stops_expand_on_a_server_that_never_answers(bench_db: str, tmp_path: Path) -> None:
    """The README's "the first Ctrl-C (or SIGTERM) stops it within half a second", through the
    installed `toolex expand`: the call's own deadline (3,600 s) is far past this test's wait."""
    from llm.scripted_answers import FaultPlan
    from llm.scripted_server import ScriptedServer

    tally = Tally("signals during a run")
    never = FaultPlan(rate=1.0, kinds=("hang",), repeats=1000)
    config = tmp_path / "slow.toml"
    config.write_text("[llm]\ncompat_timeout_s = 3600\n")
    env = {k: v for k, v in os.environ.items() if k != "TOOLEX_COMPAT_API_KEY"}
    with ScriptedServer(faults=never, hang_s=3600, drop_abandoned=True) as server:
        proc = subprocess.Popen(
            [TOOLEX, "expand", "--benchmark", "plain", "--judge", f"compat:{server.url}/v1#m",
             "--config", str(config), "--db", bench_db],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        try:
            _until(lambda: server.count("chat") > 0, "the first call", proc)
            if _ignored_at_start(signal.SIGTERM, proc.pid):
                pytest.skip("SIGTERM is ignored in this process's children")
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"`toolex expand` did not stop within {WAIT_S} s of SIGTERM")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate(timeout=WAIT_S)  # after SIGKILL: it ends
    tally.record("SIGTERM during expand", "clean error" if proc.returncode == 143 else "traceback")
    assert proc.returncode == 143, err[-600:]
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith(
        "interrupted; re-run to resume"
    ), err[-600:]
    tally.check()
