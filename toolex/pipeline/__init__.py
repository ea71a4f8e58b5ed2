"""The expansion pipeline: decompose, candidates, verify, assemble, audit (see runner.py)."""
