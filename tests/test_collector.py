"""toolex.collector: the cycle collector off inside, and as the caller had it after, however the
block ends (the bulk verifier's batches: tests/judges/test_rule_memos.py)."""

from __future__ import annotations

import gc

import pytest

from toolex.collector import collector_paused


@collector_paused()
def _inside(fail: bool) -> bool:
    if fail:
        raise ValueError("stop")
    return gc.isenabled()


def test_a_decorated_call_runs_paused_and_puts_the_state_back() -> None:
    was = gc.isenabled()
    try:
        for state in (True, False):
            (gc.enable if state else gc.disable)()
            assert _inside(False) is False
            assert gc.isenabled() is state
            with pytest.raises(ValueError, match="stop"):
                _inside(True)
            assert gc.isenabled() is state  # an error inside leaves it as it was too
    finally:
        (gc.enable if was else gc.disable)()
