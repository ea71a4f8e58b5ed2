"""Existence checks: the stored benchmarks, expansions and runs, and one family of errors with
one wording when a name is not among them ("no benchmark named X; did you mean Y?")."""

from __future__ import annotations

from toolex.errors import NotFoundError
from toolex.store.connection import Connection

# Every benchmark's implicit expansion: before any stage runs it holds the original annotation
# only, so naming it is never an error (its new scores then equal the old ones).
DEFAULT_EXPANSION = "default"


class Existence(Connection):
    """What a store holds by name, and the checks that a name given by a user is one of them."""

    def benchmarks(self) -> list[str]:
        """Every stored benchmark's name, sorted."""
        return self._names("store/10_benchmarks.sql", {})

    def expansions(self, benchmark: str | None = None) -> list[str]:
        """The expansions of ``benchmark`` (of any benchmark when None) that hold rows, sorted;
        the implicit ``default`` is listed only once a stage or import wrote it."""
        return self._names("store/11_expansions.sql", {"benchmark": benchmark})

    def runs(self, benchmark: str | None = None) -> list[str]:
        """The stored runs (of ``benchmark`` when given), sorted."""
        return self._names("store/12_runs.sql", {"benchmark": benchmark})

    def require_benchmark(self, benchmark: str | None) -> str:
        """``benchmark``, or the only one stored when None; NotFoundError with close names."""
        known = self.benchmarks()
        if benchmark is None:
            if len(known) == 1:
                return known[0]
            if not known:
                raise NotFoundError("benchmark", "", [], "load one with `toolex load` first")
            raise NotFoundError(
                "benchmark", "", known, "the store holds several; name one with --benchmark"
            )
        if benchmark not in known:
            raise NotFoundError("benchmark", benchmark, known, "load it with `toolex load`")
        return benchmark

    def require_expansion(self, benchmark: str | None, expansion: str) -> str:
        """``expansion`` of ``benchmark`` (of any benchmark when None): it must have been
        expanded or imported, except the implicit ``default`` (DEFAULT_EXPANSION)."""
        if expansion == DEFAULT_EXPANSION:
            return expansion
        known = self.expansions(benchmark)
        if expansion not in known:
            raise NotFoundError(
                "expansion",
                expansion,
                sorted({*known, DEFAULT_EXPANSION}),
                f"expand it with `toolex expand --benchmark {benchmark or 'NAME'} "
                f"--expansion {expansion}`",
            )
        return expansion

    def require_runs(self, runs: list[str], benchmark: str | None = None) -> list[str]:
        """Every name in ``runs`` is a stored run (of ``benchmark`` when given)."""
        known = self.runs(benchmark)
        for run in runs:
            if run not in known:
                raise NotFoundError(
                    "run",
                    run,
                    known,
                    "make one with `toolex retrieve` or `toolex runs import`",
                )
        return runs
