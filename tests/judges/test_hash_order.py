"""A verdict's confidence is the same in every process: the offline verifier's weighted shares
(cover, overlap) sum IDF weights over sets of words, whose order follows the strings' hashes,
which PYTHONHASHSEED changes from one process to the next; a plain float sum took that order into
its last bit (two runs of the demo differed in 2-8 confidences)."""

from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import numpy as np
from toolex.judges.evidence import EvidenceReader

words = [f"w{i}" for i in range(40)]
idf = {w: 0.1 * (i % 7) + 1 / (i + 3) for i, w in enumerate(words)}
reader = EvidenceReader(idf, 1.0, lambda texts: np.zeros((len(texts), 4), dtype=np.float32))
a, b = frozenset(words[:30]), frozenset(words[10:])
print(repr(reader._cover(set(words[5:35]), a, frozenset())), repr(reader._jaccard(a, b)))
"""


def _shares(seed: int) -> str:
    env = os.environ | {"PYTHONHASHSEED": str(seed)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_weighted_shares_do_not_follow_the_hash_order_of_a_set() -> None:
    shares = {_shares(seed) for seed in (0, 1, 2, 3)}
    assert len(shares) == 1, shares
