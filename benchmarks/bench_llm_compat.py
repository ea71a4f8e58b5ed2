"""The compat path against a local server (issue 28): what a run wastes, and what judges eval says.

Runs `toolex expand` with one OpenAI-compatible judge for every stage on a seeded sample of
StableToolBench queries, then `toolex judges eval` on a seeded sample of the shipped verdict
labels, and prints from the call ledger: calls, wasted calls (attempts whose answer was not used:
rejected, timed out, failed), rejected answers the model repeated word for word, timeouts, and
the idle slot time of the expansion (slot-seconds without a call of this run while a stage was
calling, from the ledger's send times and latencies), and the judges-eval figures with their
intervals.

Against any local server (llama.cpp ``--parallel 2``, vLLM, Ollama)::

    python benchmarks/bench_llm_compat.py --url http://127.0.0.1:8080/v1 --model qwen2.5-1.5b \\
        --slots 2 --queries 20 --labels 40
    python benchmarks/bench_llm_compat.py      # the scripted stand-in, now and as before

Without ``--url`` it starts the scripted stand-in (tests/llm/scripted_server.py in its own
process): a "small model" that names a tool in its first sub-query and repeats its rejected
answer word for word, two slots that drop a request whose client left, and one request in
``--hang-every`` that never answers. On the stand-in it also runs the same work as the code
did before issue 28 (no stop on a repeated answer, no rebuild, the limit halved below the slots,
a timed-out call holding its place), in this process, so the two runs can be compared; only the
executor and the limiter are restored, while the parser's refusals and the verify prompt's
marker are today's in both runs, and the two runs' work differs (what fails to decompose is not
verified). The stand-in's verdicts are a hash of the prompt: its judges-eval figures say the
path works, not how good any model is. Needs ../shared/data (ToolRet and StableToolBench: the
shipped labels name both).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, TypedDict
from unittest.mock import patch

from click.testing import CliRunner, Result

from toolex.cli import cli
from toolex.errors import NoOutcomeError
from toolex.llm.clock import SYSTEM_CLOCK, Clock
from toolex.store import Store

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "tests" / "llm" / "scripted_server.py"
SHARED = ROOT.parent / "shared" / "data"


class Call(TypedDict):
    """The columns of an llm_calls row (sql/schema/001_base.sql) the figures read."""

    stage: str
    input_hash: str
    status: str  # ok | error | malformed | pending
    error: str | None
    response: str | None
    created_at: datetime
    latency_ms: float | None


class Measured(TypedDict):
    """One run: the expansion's calls, judges eval's calls and its JSON report."""

    rows: list[Call]
    eval_rows: list[Call]
    expand_s: float
    eval: dict[str, Any]  # `toolex judges eval --format json`, as printed
    slots: int


def toolex(*args: str) -> Result:
    res = CliRunner().invoke(cli, list(args))
    # 3: a budget stopped the run; a stage with no outcome at all (NoOutcomeError, exit 4 from
    # the installed command) is the "before issue 28" run, whose every decomposition fails on the
    # stand-in: both are figures, not failures here
    if isinstance(res.exception, NoOutcomeError):
        return res
    if res.exit_code not in (0, 3):
        raise SystemExit(f"toolex {' '.join(args)} failed ({res.exit_code}):\n{res.output}")
    return res


@contextlib.contextmanager
def stand_in(args: argparse.Namespace) -> Iterator[str]:
    cmd = [sys.executable, str(SERVER), "--model", "small", "--latency", str(args.latency)]
    cmd += ["--slots", str(args.slots), "--drop-abandoned", "--hang-every", str(args.hang_every)]
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None  # stdout=PIPE
    try:
        yield f"http://127.0.0.1:{int(server.stdout.readline())}/v1"
    finally:
        server.kill()
        server.wait()


@contextlib.contextmanager
def as_before_issue_28() -> Iterator[None]:
    """The executor and limiter as they were: every attempt made whatever the model repeats,
    no rebuild, cuts down to one call in flight, a timed-out call holding its place for the
    fastest answer's time."""
    from toolex.judges import plans
    from toolex.llm import corrections, limiter

    init_now = limiter.Limiter.__init__

    def next_(
        self: corrections.Rejections, correction: corrections.Correction
    ) -> corrections.Correction:
        return correction

    def no_rebuild(*args: object, **kwargs: object) -> None:
        return None

    def timed_out(self: limiter.Limiter, ticket: limiter.Ticket) -> float:
        with self._cond:
            self._cut(ticket)
            return min(self._latencies) if self._latencies else 0.0

    def init(
        self: limiter.Limiter,
        cap: int,
        start: int | None = None,
        *,
        watch_latency: bool = False,
        timeout_s: float | None = None,
        floor: int = 1,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        init_now(
            self, cap, start, watch_latency=watch_latency, timeout_s=timeout_s, floor=1, clock=clock
        )

    with contextlib.ExitStack() as patched:
        patched.enter_context(patch.object(corrections.Rejections, "next", next_))
        patched.enter_context(patch.object(limiter.Limiter, "timed_out", timed_out))
        patched.enter_context(patch.object(limiter.Limiter, "__init__", init))
        patched.enter_context(patch.object(plans, "rebuilt", no_rebuild))
        yield


def run(url: str, args: argparse.Namespace, tmp: Path, name: str) -> Measured:
    db = str(tmp / f"{name}.duckdb")
    toolex("load", "toolret", str(args.data / "toolret"), "--db", db, "-q")
    toolex("load", "stabletoolbench", str(args.data / "stabletoolbench"), "--db", db, "-q")
    with Store.open(db, read_only=True) as store:
        ids = store.user_sql(
            "SELECT query_id FROM queries WHERE benchmark = 'stabletoolbench' ORDER BY query_id"
        ).to_pylist()
    chosen = random.Random(args.seed).sample([r["query_id"] for r in ids], args.queries)
    spec = f"compat:{url}#{args.model}"
    config = tmp / f"{name}.toml"
    config.write_text(
        "[judges]\n"
        + "".join(f'{stage} = "{spec}"\n' for stage in ("decompose", "verify", "audit"))
        + f"[llm]\nslots = {args.slots}\ncompat_timeout_s = {args.timeout}\n"
        f"backoff_base_s = {args.backoff}\n",
        encoding="utf-8",
    )
    started = time.perf_counter()
    queries = [x for q in chosen for x in ("--queries", q)]
    toolex(
        "expand", "--db", db, "--benchmark", "stabletoolbench", "--config", str(config),
        "--depth", str(args.depth), "--audit-cap", str(args.audit_cap), "-q", *queries,
    )  # fmt: skip
    expand_s = time.perf_counter() - started
    expand_end = datetime.now()  # the ledger's clock: later rows are judges eval's
    ev = toolex(
        "judges", "eval", "--judge", spec, "--config", str(config), "--db", db,
        "--limit", str(args.labels), "--seed", str(args.seed), "--format", "json", "-q",
    )  # fmt: skip
    with Store.open(db, read_only=True) as store:
        rows: list[Call] = store.user_sql(
            "SELECT stage, input_hash, status, error, response, created_at, latency_ms "
            "FROM llm_calls ORDER BY created_at"
        ).to_pylist()
    return {
        "rows": [r for r in rows if r["created_at"] < expand_end],
        "eval_rows": [r for r in rows if r["created_at"] >= expand_end],
        "expand_s": expand_s,
        "eval": json.loads(ev.stdout),
        "slots": args.slots,
    }


def figures(result: Measured) -> dict[str, int | float | str]:
    rows = result["rows"]
    seen: set[tuple[str, str | None]] = set()
    repeats = 0
    for r in rows:
        if r["status"] == "malformed":
            key = (r["input_hash"], r["response"])
            repeats += key in seen
            seen.add(key)
    stages = [[r for r in rows if r["stage"] == stage] for stage in {r["stage"] for r in rows}]
    idle = sum(idle_slot_seconds(part, result["slots"]) for part in stages)
    span = sum(stage_seconds(part) for part in stages) * result["slots"]
    [report] = result["eval"]["judges"]
    o = report["overall"]
    return {
        "calls": len(rows),
        "wasted": sum(r["status"] != "ok" for r in rows),
        "repeated": repeats,
        "timeouts": sum("timeout" in (r["error"] or "") for r in rows),
        "idle_slot_s": idle,
        "idle_share": f"{idle / span:.0%}" if span else "-",
        "expand_s": result["expand_s"],
        "eval_n": o["n"],
        "precision": f"{o['precision']:.2f} [{o['precision_lo']:.2f}, {o['precision_hi']:.2f}]"
        if o["precision"] is not None
        else "-",
        "recall": f"{o['recall']:.2f} [{o['recall_lo']:.2f}, {o['recall_hi']:.2f}]"
        if o["recall"] is not None
        else "-",
        "eval_calls": len(result["eval_rows"]),
    }


def stage_seconds(rows: list[Call]) -> float:
    """From a stage's first call to its last answer."""
    if not rows:
        return 0.0
    starts = [float(r["created_at"].timestamp()) for r in rows]
    ends = [start + (r["latency_ms"] or 0) / 1000 for start, r in zip(starts, rows, strict=True)]
    return max(ends) - min(starts)


def idle_slot_seconds(rows: list[Call], slots: int) -> float:
    """Slot-seconds without a call of this stage, from its first call to its last answer."""
    if not rows:
        return 0.0
    events = []
    for r in rows:
        start = r["created_at"].timestamp()
        events += [(start, 1), (start + (r["latency_ms"] or 0) / 1000, -1)]
    events.sort()
    idle, active, last = 0.0, 0, events[0][0]
    for t, step in events:
        idle += max(0, slots - active) * (t - last)
        active, last = active + step, t
    return idle


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", help="an OpenAI-compatible base URL (default: the stand-in)")
    ap.add_argument("--model", default="qwen2.5-1.5b", help="the model name the server serves")
    ap.add_argument("--slots", type=int, default=2, help="the server's parallel slots")
    ap.add_argument("--queries", type=int, default=10, help="queries expanded (seeded sample)")
    ap.add_argument("--labels", type=int, default=20, help="labels judged (seeded sample)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--depth", type=int, default=5, help="candidates per sub-query")
    ap.add_argument("--audit-cap", type=int, default=3, help="combinations audited per query")
    ap.add_argument("--timeout", type=float, default=300.0, help="compat_timeout_s")
    ap.add_argument("--backoff", type=float, default=1.0, help="backoff_base_s")
    ap.add_argument("--latency", type=float, default=0.3, help="stand-in: seconds a call")
    ap.add_argument("--hang-every", type=int, default=25, help="stand-in: a request never answers")
    ap.add_argument("--data", type=Path, default=SHARED, help="ToolRet and StableToolBench")
    args = ap.parse_args()
    if not (args.data / "toolret").exists() or not (args.data / "stabletoolbench").exists():
        raise SystemExit(f"needs ToolRet and StableToolBench under {args.data} (--data)")
    os.environ.setdefault("TOOLEX_COMPAT_API_KEY", "not-needed")
    results: dict[str, dict[str, int | float | str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            results["this server"] = figures(run(args.url, args, Path(tmp), "run"))
        else:
            args.timeout = min(args.timeout, 3.0)  # the hung requests: seconds, not minutes
            args.backoff = min(args.backoff, 0.05)
            with stand_in(args) as url:
                results["now"] = figures(run(url, args, Path(tmp), "now"))
            with stand_in(args) as url, as_before_issue_28():
                results["before issue 28"] = figures(run(url, args, Path(tmp), "before"))
    where = args.url or f"the scripted stand-in ({args.slots} slots, {args.latency} s a call)"
    print(f"compat judge {args.model} at {where}; {args.queries} StableToolBench queries "
          f"(seed {args.seed}), depth {args.depth}, audit cap {args.audit_cap}; judges eval on "
          f"{args.labels} shipped labels (seed {args.seed})")  # fmt: skip
    names = list(results)
    print(f"{'':28}" + "".join(f"{n:>22}" for n in names))
    for key, label in (
        ("calls", "calls (ledger rows)"),
        ("wasted", "wasted calls"),
        ("repeated", "answers repeated verbatim"),
        ("timeouts", "timeouts"),
        ("idle_slot_s", "idle slot time (s)"),
        ("idle_share", "idle share of slot time"),
        ("expand_s", "expand wall time (s)"),
        ("eval_n", "judges eval: labels judged"),
        ("precision", "judges eval: precision"),
        ("recall", "judges eval: recall"),
        ("eval_calls", "judges eval: calls"),
    ):
        cells = [results[n][key] for n in names]
        shown = [f"{c:.1f}" if isinstance(c, float) else str(c) for c in cells]
        print(f"{label:28}" + "".join(f"{c:>22}" for c in shown))


if __name__ == "__main__":
    main()
