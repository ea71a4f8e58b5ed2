"""CPU per text of an embeddings answer read by toolex, against the openai SDK's parsed answer in
the same run (issue 34: a compatible server's float JSON cost about 2.3 ms a text on the client,
the Tour's endpoint commands 30 CPU-s each).

    python benchmarks/bench_embed_parse.py                # widths 384 and 1,024, 64 texts a call
    python benchmarks/bench_embed_parse.py --widths 4096 --calls 20

A server on 127.0.0.1 (a thread of this process) answers every request with the same bytes,
made once before timing (float JSON for ``compat``, base64 for ``openai``), so both sides pay
the same HTTP and server cost and differ only in how the answer is read:
- toolex: ``EmbeddingClient.create`` (the raw answer, json.loads and numpy);
- reference: the same client's ``sdk_client.embeddings.create`` (the SDK's models), then the
  vectors as toolex took them before (``np.asarray`` of each ``embedding``).
Both must give equal vectors. CPU is this process's (client and server thread), per text,
median of ``--rounds`` alternating rounds.
"""

from __future__ import annotations

import argparse
import base64
import functools
import json
import os
import statistics
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
from figures import load, record

from toolex.llm.embeddings import EmbeddingClient


def answer(vectors: np.ndarray, base64_vectors: bool) -> bytes:
    """The JSON body a server sends for ``vectors``."""
    data = [
        {
            "object": "embedding",
            "index": i,
            "embedding": base64.b64encode(v.astype("<f4").tobytes()).decode()
            if base64_vectors
            else v.tolist(),
        }
        for i, v in enumerate(vectors)
    ]
    usage = {"prompt_tokens": len(vectors), "total_tokens": len(vectors)}
    return json.dumps({"object": "list", "data": data, "model": "m", "usage": usage}).encode()


def serve(body: bytes) -> ThreadingHTTPServer:
    """A server answering every POST with ``body``."""

    class Canned(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server name)
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Canned)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def read_toolex(client: EmbeddingClient, texts: list[str]) -> np.ndarray:
    return client.create(texts).vectors


def read_sdk(client: EmbeddingClient, texts: list[str]) -> np.ndarray:
    """As toolex read an answer before: the SDK's models, then numpy (float JSON asked of a
    compatible server, the SDK's default base64 of OpenAI)."""
    embeddings = client.sdk_client.embeddings
    if client.provider == "compat":
        resp = embeddings.create(model="m", input=texts, encoding_format="float")
    else:
        resp = embeddings.create(model="m", input=texts)
    return np.asarray([d.embedding for d in resp.data], dtype=np.float32)


def cpu_per_text(call: Callable[[], np.ndarray], calls: int, texts: int) -> float:
    """CPU ms per text of ``calls`` calls."""
    started = time.process_time()
    for _ in range(calls):
        call()
    return (time.process_time() - started) * 1000 / (calls * texts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--widths", type=int, nargs="+", default=[384, 1024])
    ap.add_argument("--texts", type=int, default=64, help="texts per call")
    ap.add_argument("--calls", type=int, default=20, help="calls per round and side")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    started = load()
    os.environ.setdefault("OPENAI_API_KEY", "bench-no-key")  # the canned server checks none
    print(f"# 2 cores, load {started}; {args.texts} texts a call, {args.calls} calls a round")
    rows = []
    for provider in ("compat", "openai"):
        for width in args.widths:
            vectors = np.random.default_rng(width).random((args.texts, width)).astype(np.float32)
            server = serve(answer(vectors, base64_vectors=provider == "openai"))
            url = f"http://127.0.0.1:{server.server_address[1]}/v1"
            client = EmbeddingClient(provider, "m", url)
            texts = [f"text {i}" for i in range(args.texts)]
            toolex = functools.partial(read_toolex, client, texts)
            sdk = functools.partial(read_sdk, client, texts)
            if not np.array_equal(toolex(), sdk()) or not np.array_equal(toolex(), vectors):
                raise SystemExit(f"{provider} {width}: the two readings differ")
            times: dict[str, list[float]] = {"toolex": [], "sdk": []}
            for _ in range(args.rounds):
                times["toolex"].append(cpu_per_text(toolex, args.calls, args.texts))
                times["sdk"].append(cpu_per_text(sdk, args.calls, args.texts))
            server.shutdown()
            ours, theirs = (statistics.median(times[k]) for k in ("toolex", "sdk"))
            row = {
                "provider": provider,
                "width": width,
                "encoding": "float JSON" if provider == "compat" else "base64",
                "toolex_ms_per_text": round(ours, 4),
                "sdk_ms_per_text": round(theirs, 4),
                "ratio": round(ours / theirs, 3),
            }
            rows.append(row)
            print(
                f"{provider:6} width {width:5}: toolex {ours:.3f} ms/text, SDK {theirs:.3f} "
                f"ms/text, toolex/SDK {ours / theirs:.2f}  load {os.getloadavg()[0]:.2f}"
            )
    path = record(
        "bench_embed_parse",
        {"CPU per text of an embeddings answer, toolex vs the openai SDK's parse": rows},
        data="synthetic vectors from a canned server on 127.0.0.1",
        load_at_start=started,
    )
    print(f"recorded in {path}")


if __name__ == "__main__":
    main()
