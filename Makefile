# One entry point for every check CI runs (.ci/run calls `make check`).
# Each target is also usable alone: `make lint`, `make types`, `make contracts`, `make test`.
.PHONY: check lint format types contracts test

# `make check`: the quick checks first, then mypy beside the tests. pytest's two workers leave
# the cores idle part of the time (tests waiting on timeouts, subprocesses, a JVM), which
# mypy's ~25 CPU-s fills instead of adding its own half minute to CI. --output-sync keeps each
# target's output whole (mypy's report, then pytest's), never interleaved.
check: lint contracts
	$(MAKE) --no-print-directory --jobs=2 --output-sync=target types test

lint:
	ruff check .
	ruff format --check .

format:
	ruff format .
	ruff check --fix .

types:
	mypy toolex tui

contracts:
	lint-imports

test:
	pytest
