"""Python's cycle collector paused around work that allocates much and leaves no cycles.

One rule, two users: the offline judge's bulk verifier around each batch it reads
(toolex.judges.evidence_bulk), and `toolex demo` for its whole length (toolex.cli.demo, which
collects at its own settle points). Used as a context manager or, made with ``()``, a decorator.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the block (on again after, if it was on).

    A batch allocates a few hundred thousand short-lived tuples, sets and records, freed by
    their counts; each allocation threshold reached set off a collection that walked the whole
    heap (the tasks, every document and memo) for cycles there are none of: 15-25% of a
    demo-sized batch's CPU. Paused only around the reading, never across a ``yield``, so the
    caller's code between outcomes runs with the collector as it set it.

    What the batch left alive (its memos' values, the verdicts) joins the oldest generation
    before the collector is on again: switched on with them in the youngest, its first
    collection walked every one of them (~10 ms a 300,000; 4% of a batch of model cards). They
    are still walked by the next full collection, as every old object is. Done by freezing and
    unfreezing, which moves every tracked object to the oldest generation in O(1), and only in a
    process that froze nothing itself (``gc.unfreeze`` would give its objects back)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
