# One entry point for every check CI runs (.ci/run calls `make check`).
# Each target is also usable alone: `make lint`, `make types`, `make contracts`, `make test`.
.PHONY: check lint format types contracts test

check: lint contracts types test

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
