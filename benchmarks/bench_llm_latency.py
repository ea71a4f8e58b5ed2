"""Stage-2 throughput of the LLM judge against a scripted server with fixed latency.

Target (issue 4): N verify calls with an in-flight limit L against a server answering in T
seconds finish within 1.25 x (N x T / L) — i.e. the executor keeps L calls in flight and its own
overhead (SDK, threads, ledger writes) costs at most a quarter on top. An identical second run
must make zero HTTP calls (every answer comes from the call ledger).

The server runs in a separate process so it does not compete with the client for the GIL (a
real provider does not either). Run::

    python benchmarks/bench_llm_latency.py            # 2000 calls, 100 ms, 32 in flight
    python benchmarks/bench_llm_latency.py --calls 4000 --in-flight 64
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import reads

from toolex.judges import make_judge
from toolex.judges.base import ToolDoc, VerifyTask
from toolex.judges.llm import LLMJudge
from toolex.store import Store

SERVER = Path(__file__).resolve().parents[1] / "tests" / "llm" / "scripted_server.py"


def tool(i: int) -> ToolDoc:
    doc = {
        "name": f"tool_{i}",
        "description": f"Returns the weather forecast for region {i}.",
        "parameters": [{"name": "city", "type": "string", "required": True}],
    }
    return ToolDoc(f"tool_{i}", f"tool_{i}", f"platform_{i % 50}", doc, json.dumps(doc))


def tasks(n: int) -> list[VerifyTask]:
    ref = tool(-1)
    return [
        VerifyTask(
            f"q{i // 20}/0/tool_{i}", f"get the weather forecast for city {i // 20}", tool(i), ref
        )
        for i in range(n)
    ]


def bare_sdk_run(port: int, prompts: list[tuple[str, str]], in_flight: int) -> float:
    """Reference: the same prompts through the bare SDK from the same number of threads, with no
    judge machinery (ledger, parsing, outcomes) — what the machine allows right now."""
    import openai

    client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", max_retries=0, timeout=30)
    todo: queue.Queue[tuple[str, str]] = queue.Queue()
    for i, (system, user) in enumerate(prompts):
        todo.put((f"reference call {i}\n{system}", user))  # new text: the plan never repeats

    def worker() -> None:
        while True:
            try:
                system, user = todo.get_nowait()
            except queue.Empty:
                return
            client.chat.completions.create(
                model="gpt-4o-mini",
                temperature=0,
                response_format={"type": "json_object"},
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            )

    threads = [threading.Thread(target=worker) for _ in range(in_flight)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - t0


def stats(port: int) -> dict[str, int]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stats") as resp:
        counts = json.load(resp)  # the scripted server's calls per kind
    return {str(kind): int(n) for kind, n in counts.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--in-flight", type=int, default=32)
    args = ap.parse_args()

    os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-real-key")
    server = subprocess.Popen(
        [sys.executable, str(SERVER), "--latency", str(args.latency)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None  # PIPE
    try:
        port = int(server.stdout.readline())
        work = tasks(args.calls)
        with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "b.duckdb") as store:
            judge = make_judge(
                "openai:gpt-4o-mini",
                store,
                base_url=f"http://127.0.0.1:{port}/v1",
                max_in_flight=args.in_flight,
                timeout_s=30.0,
            )
            assert isinstance(judge, LLMJudge)
            ideal = args.calls * args.latency / args.in_flight
            # Warm-up, untimed, for both runs alike: the SDK imports its response types on first
            # use and the machine is shared, so the reference runs right before the judge.
            list(judge.verify([VerifyTask("warm-up", "warm up the client", tool(-2), tool(-1))]))
            prompts = [judge._prepare("verify", t) for t in work]
            bare = bare_sdk_run(port, [(p.system, p.user) for p in prompts], args.in_flight)
            del prompts
            base_calls = stats(port).get("chat", 0)
            t0 = time.perf_counter()
            first = list(judge.verify(work))
            wall = time.perf_counter() - t0
            calls_first = stats(port).get("chat", 0) - base_calls
            base_calls += calls_first
            t1 = time.perf_counter()
            second = list(judge.verify(work))
            wall2 = time.perf_counter() - t1
            calls_second = stats(port).get("chat", 0) - base_calls
            rows = reads.value(store, "SELECT count(*) FROM llm_calls") - 1
        ok = sum(o.ok for o in first)
        ratio = wall / ideal
        print(
            f"verify calls          {args.calls} ({ok} ok), latency {args.latency * 1000:.0f} ms,"
            f" in flight {args.in_flight}"
        )
        print(f"ideal N*T/L           {ideal:.2f} s")
        print(f"first run wall        {wall:.2f} s   ratio {ratio:.3f}  (target <= 1.25)")
        print(
            f"bare SDK, same calls  {bare:.2f} s   ratio {bare / ideal:.3f}  (the machine's"
            f" floor now; judge overhead over it x{wall / bare:.3f})"
        )
        print(f"HTTP calls, 1st run   {calls_first}   ledger rows {rows}")
        print(
            f"second run wall       {wall2:.2f} s   HTTP calls {calls_second} (target 0),"
            f" answers {sum(o.ok for o in second)}"
        )
        print(f"load average          {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
        verdict = ratio <= 1.25 and calls_second == 0 and ok == args.calls
        print("PASS" if verdict else "FAIL")
        sys.exit(0 if verdict else 1)
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
