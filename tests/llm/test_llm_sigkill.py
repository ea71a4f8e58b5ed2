"""A process killed with SIGKILL in the middle of a stage, then re-run: the same answers as an
uninterrupted run, and no call that finished before the kill is made again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from llm.llm_support import FaultPlan, ScriptedServer, outcome_view, verify_tasks
from toolex.judges import make_judge
from toolex.llm.ledger import Ledger
from toolex.store import Store

HERE = Path(__file__).resolve().parent
# 5 s: what a hang costs, and the margin an answered request has before it would time out too
OPTS = {"max_in_flight": 3, "timeout_s": 5.0, "backoff_base_s": 0.01, "max_attempts": 6}
LET_THROUGH = 40  # requests the killed run gets answered: >= 20 finished tasks, never all 60

CHILD = textwrap.dedent("""
    import sys
    sys.path.insert(0, {here!r})
    from llm.llm_support import verify_tasks
    from toolex.judges import make_judge
    from toolex.store import Store
    store = Store.open({db!r})
    judge = make_judge("openai:gpt-4o-mini", store, base_url={url!r}, **{opts!r})
    print("ready", flush=True)
    for outcome in judge.verify(verify_tasks(60)):
        print(outcome.key, flush=True)
""")


@pytest.mark.timeout(300, method="signal")  # its own deadline: it waits on a child
@pytest.mark.slow
def test_sigkill_mid_stage_then_rerun(llm_env: dict[str, str], tmp_path: Path) -> None:
    tasks = verify_tasks(60)
    with ScriptedServer(faults=FaultPlan(rate=0.2), latency_s=0.08) as s:
        url = s.url + "/v1"
        with Store.open(tmp_path / "reference.duckdb") as ref:
            reference = outcome_view(
                make_judge("openai:gpt-4o-mini", ref, base_url=url, **OPTS).verify(tasks)
            )
        s.faults = FaultPlan(rate=0.2)  # fresh plans: the killed run and the re-run see faults
        s.hold_after(LET_THROUGH)  # the kill lands mid-stage however fast the child runs
        db = tmp_path / "killed.duckdb"
        script = CHILD.format(here=str(HERE.parent), db=str(db), url=url, opts=OPTS)
        child = subprocess.Popen(
            [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=dict(os.environ)
        )
        assert child.stdout is not None  # PIPE
        assert child.stdout.readline().strip() == "ready"
        finished = [child.stdout.readline().strip() for _ in range(20)]
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
        assert child.returncode == -signal.SIGKILL
        s.release()

        s.faults = FaultPlan(rate=0.2)
        with Store.open(db) as store:
            before = Ledger(store).rows()
            ok_before = {r["input_hash"] for r in before if r["status"] == "ok"}
            served_before = sum(s.served.values())
            faults_before = sum(n for k, n in s.served.items() if k != "ok")
            rerun = list(
                make_judge("openai:gpt-4o-mini", store, base_url=url, **OPTS).verify(tasks)
            )
            after = Ledger(store).rows()
        sent = sum(s.served.values()) - served_before
        faults = sum(n for k, n in s.served.items() if k != "ok") - faults_before

    assert outcome_view(rerun) == reference
    cached = {o.key for o in rerun if o.extra["cached"]}
    assert set(finished) <= cached  # every answer the killed run handed over is reused
    assert len(cached) == len(ok_before) >= 20
    assert len(ok_before) < 60  # the kill did land mid-stage
    # the re-run paid only for the tasks the killed run had not finished (plus its own faults)
    assert sent == 60 - len(ok_before) + faults
    ok_after = [r["input_hash"] for r in after if r["status"] == "ok"]
    assert len(ok_after) == len(set(ok_after)) == 60
