"""What the scripted server (scripted_server.py) answers on ``/v1/embeddings``, and when it fails.

Vectors are a bag of words hashed into ``dim`` buckets (lower-cased ``\\w+`` words, md5), each
bucket the square root of its count (sub-linear, so a word repeated through a long JSON document
does not outweigh the rest): a real, if crude, lexical embedding, so a retriever over it ranks
sensibly (at 1,024 dimensions the Tour's toolink sub-queries find their tool in the top 20 of the
pooled library 71% of the time, 47% with raw counts), and any text's vector can be recomputed by
a test (``vector``). ``prompt_tokens`` is the number of words. ``encoding_format`` ``float``
gets lists of numbers, ``base64`` (the openai SDK's default) little-endian float32 bytes, as
OpenAI sends them.

Faults are a queue consumed in order of arrival, one per request (``EmbeddingScript.fail``):
``429`` (with Retry-After 0), ``500``, ``401``, ``400`` (an input too long), ``short`` (one vector
fewer than texts), ``nan`` (a vector of NaN), ``array`` (a JSON array, not an object),
``base64`` (a vector that is not base64 of float32 bytes), or ``ok`` (none:
``fail("ok", "ok", "400")`` fails the third request). A test that queues two faults knows that
two requests fail once each, whichever two arrive first.
"""

from __future__ import annotations

import base64
import hashlib
import re
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# "ok": no fault
EMBED_FAULTS = ("ok", "429", "500", "401", "400", "short", "nan", "array", "base64")


def vector(text: str, dim: int) -> np.ndarray:
    """The scripted model's vector of ``text`` (not normalised; toolex normalises)."""
    out = np.zeros(dim, dtype=np.float32)
    for word in re.findall(r"\w+", text.lower()):
        out[int(hashlib.md5(word.encode()).hexdigest(), 16) % dim] += 1.0
    if not out.any():
        out[0] = 1.0  # an empty text still gets a direction
    return np.sqrt(out)


@dataclass
class EmbeddingScript:
    dim: int = 64
    # consumed one per request, in arrival order
    faults: deque[str | None] = field(default_factory=deque)
    texts: list[str] = field(default_factory=list)  # every text embedded, in order of answers
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fail(self, *kinds: str) -> None:
        unknown = set(kinds) - set(EMBED_FAULTS)
        assert not unknown, f"unknown embedding faults {unknown}"
        with self.lock:
            self.faults.extend(kinds)

    def next_fault(self) -> str | None:
        with self.lock:
            fault = self.faults.popleft() if self.faults else None
        return None if fault == "ok" else fault

    def answer(self, body: dict[str, Any], fault: str | None) -> tuple[int, object]:
        """(HTTP status, JSON body) for one request."""
        if fault in ("429", "500", "401", "400"):
            status = int(fault)
            message = {
                429: "rate limited",
                500: "scripted fault",
                401: "invalid api key",
                400: "input is too large to process; increase the physical batch size",
            }[status]
            return status, {"error": {"message": message, "type": "scripted", "code": status}}
        inputs = body.get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
        vectors = [vector(t, self.dim) for t in texts]
        if fault == "nan" and vectors:
            vectors[0] = np.full(self.dim, np.nan, dtype=np.float32)
        if fault == "short":
            vectors = vectors[:-1]
        with self.lock:
            self.texts.extend(texts)
        b64 = body.get("encoding_format") == "base64"
        data = [
            {
                "object": "embedding",
                "index": i,
                "embedding": base64.b64encode(v.astype("<f4").tobytes()).decode()
                if b64
                else v.tolist(),  # the float32 values as Python floats (as float(x) of each)
            }
            for i, v in enumerate(vectors)
        ]
        if fault == "array":
            return 200, data
        if fault == "base64" and data:
            data[0]["embedding"] = "bm90IGZsb2F0cw"  # "not floats", unpadded: not base64
        words = sum(len(re.findall(r"\w+", t)) for t in texts)
        return 200, {
            "object": "list",
            "data": data,
            "model": body.get("model"),
            "usage": {"prompt_tokens": words, "total_tokens": words},
        }
