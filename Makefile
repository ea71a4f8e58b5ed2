# One entry point for every check CI runs (.ci/run calls `make check`).
# Each target is also usable alone: `make lint`, `make types`, `make contracts`, `make owners`,
# `make test`, `make docs`.
.PHONY: check lint format types contracts owners docs test

# lint and contracts take a second. mypy (~25 s with no cache, as in CI) then runs beside the
# tests at the lowest CPU priority: it gets the cycles the test workers leave idle while they wait
# on servers and subprocesses, and the real-time LLM tests keep their cores (at normal priority
# beside them it made one of those time out). Its report is printed after the tests'; either
# failing fails the check.
# The tests leave out the two files `owners` has just run (6 CPU-s a second time).
check: lint contracts owners docs
	@report=$$(mktemp); \
	nice -n 19 $(MAKE) --no-print-directory types > $$report 2>&1 & types=$$!; \
	$(MAKE) --no-print-directory test PYTEST_ARGS="$(OWNERS_RAN)"; tests=$$?; \
	wait $$types; typed=$$?; cat $$report; rm -f $$report; \
	[ $$typed -eq 0 ] || echo "make check: mypy failed"; \
	[ $$tests -eq 0 ] && [ $$typed -eq 0 ]

lint:
	ruff check .
	ruff format --check .

format:
	ruff format .
	ruff check --fix .

# Every package strict, tests included (pyproject.toml [tool.mypy]): one run, so a test that
# calls a renamed function or reads a renamed attribute fails beside the code that renamed it.
types:
	mypy toolex tui benchmarks tests

contracts:
	lint-imports

# The documentation site, strict: a broken link, a missing anchor or a figure with no record fails
# it. Built into a temporary folder, removed after, so nothing is left in the tree.
docs:
	@site=$$(mktemp -d); NO_MKDOCS_2_WARNING=1 mkdocs build --strict --site-dir $$site; built=$$?; \
	rm -rf $$site; exit $$built

# One package writes each table, from one SQL folder: what lint-imports is for imports.
OWNERS_TESTS = tests/test_owners.py tests/test_row_crossings.py
OWNERS_RAN = $(addprefix --ignore=,$(OWNERS_TESTS))

owners:
	pytest -q -n 0 -p no:cacheprovider $(OWNERS_TESTS)

test:
	pytest $(PYTEST_ARGS)
