"""What every stage shares: the run's scope, progress reporting, and buffered outcome writing.

Outcomes are written as they complete, in short transactions (every ``FLUSH_ROWS`` rows or
``FLUSH_SECONDS``, whichever comes first), and the buffer is flushed in a ``finally`` so an
exception or Ctrl-C still stores every finished outcome: a re-run then resumes with the unfinished
tasks only. (A hard kill can lose at most one unflushed buffer; an LLM judge serves those repeats
from its call ledger.) The pipeline writes its own tables with its SQL files; outcomes that land
in the expansion tables go to their owner, toolex.expansions, as typed records (a ``Sink``).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast, overload

import pyarrow as pa

from toolex.judges.base import Judge, Outcome, answers
from toolex.llm.keys import redact_secrets
from toolex.llm.timeouts import setting_for, slow_server_note
from toolex.progress import Field, NullProgress, Progress, reporting
from toolex.sqlrunner import Params, SqlValue
from toolex.store import Store

FLUSH_ROWS = 2000
FLUSH_SECONDS = 2.0

R = TypeVar("R")
# A writer of a table the pipeline does not own (toolex.expansions.insert_subqueries, ...):
# called with the store, the expansion's benchmark and name, and a batch of its records.
Sink = Callable[[Store, str, str, Sequence[R]], None]


@dataclass
class StageContext:
    store: Store
    benchmark: str
    expansion: str
    query_ids: list[str]
    retry_failed: bool = False
    progress: Progress = field(default_factory=NullProgress)  # advance(calls=, cost_usd=)
    calls: int = 0  # judge calls made so far in this run (all stages)
    cost: float = 0.0  # their cost in USD, where known

    def params(self, **extra: SqlValue) -> dict[str, SqlValue]:
        return {
            "benchmark": self.benchmark,
            "expansion": self.expansion,
            "query_ids": self.query_ids,
            **extra,
        }

    def base(self, **extra: SqlValue) -> dict[str, SqlValue]:
        return {"benchmark": self.benchmark, "expansion": self.expansion, **extra}


def write_rows(
    store: Store, name: str, rows: Sequence[Mapping[str, object]], params: Params
) -> None:
    """Run a batch SQL file over ``rows`` registered as the relation ``stage_rows``.

    One set-based statement per batch: DuckDB's ``executemany`` costs milliseconds per row.
    """
    if not rows:
        return
    with store.registered("stage_rows", pa.Table.from_pylist(list(rows))):
        store.execute(name, params)


class Writer:
    """Buffers rows and writes them in short transactions: (sql file, row) pairs for the
    pipeline's own tables, (sink, record) pairs for the expansion tables (toolex.expansions).

    Rows hold the batch columns only; ``params`` (benchmark, expansion) are bound once per file
    and handed to each sink.
    """

    def __init__(self, store: Store, params: Params) -> None:
        self.store = store
        self.params = params
        # (SQL file, its batch row) or (sink, its record): the overloads of add() pair them
        self.rows: list[tuple[str | Callable[..., None], object]] = []
        self.last = time.monotonic()
        self.written = 0
        self._whole = 0  # open outcome() blocks: rows wait until the outcome is whole

    @overload
    def add(self, target: str, row: Mapping[str, object]) -> None: ...

    @overload
    def add(self, target: Sink[R], row: R) -> None: ...

    def add(self, target: str | Callable[..., None], row: object) -> None:
        self.rows.append((target, row))
        if self._whole:
            return
        if len(self.rows) >= FLUSH_ROWS or time.monotonic() - self.last > FLUSH_SECONDS:
            self.flush()

    @contextlib.contextmanager
    def outcome(self) -> Iterator[None]:
        """The rows of one outcome (a query's k sub-queries) go to the store in one transaction:
        a flush falling due in the middle waits for the block's end. A decomposition stored in
        two flushes, and a stop at once between them, left a query with some of its slots,
        which the resumed run took for done (issue 37.15). An exception inside the block (a
        second Ctrl-C) drops the outcome's rows: it is redone whole."""
        mark = len(self.rows)
        self._whole += 1
        try:
            yield
        except BaseException:
            del self.rows[mark:]
            raise
        finally:
            self._whole -= 1
        if not self._whole and (
            len(self.rows) >= FLUSH_ROWS or time.monotonic() - self.last > FLUSH_SECONDS
        ):
            self.flush()

    def flush(self) -> None:
        if not self.rows:
            return
        by_target: dict[str | Callable[..., None], list[object]] = {}
        for target, row in self.rows:
            by_target.setdefault(target, []).append(row)
        benchmark, expansion = str(self.params["benchmark"]), str(self.params["expansion"])
        with self.store.transaction():
            for target, many in by_target.items():
                if isinstance(target, str):
                    rows = cast("list[Mapping[str, object]]", many)  # add()'s first overload
                    write_rows(self.store, target, rows, self.params)
                else:
                    target(self.store, benchmark, expansion, many)
        self.written += len(self.rows)
        self.rows = []
        self.last = time.monotonic()

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.flush()


@dataclass
class StageCounts:
    """What one stage did in this run."""

    stage: str
    tasks: int = 0
    ok: int = 0
    failed: int = 0
    calls: int = 0
    cost_usd: float = 0.0
    notes: dict[str, int] = field(default_factory=dict)
    hint: str | None = None  # one line for the user about this stage (a timeout too short)

    def as_row(self) -> dict[str, str | int | float]:
        return {
            "stage": self.stage,
            "tasks": self.tasks,
            "ok": self.ok,
            "failed": self.failed,
            "calls": self.calls,
            "cost_usd": round(self.cost_usd, 4),
            "notes": ", ".join(f"{k} {v}" for k, v in sorted(self.notes.items())),
        }


class Meter:
    """Calls and cost of one stage: from the judge's own spend counter when it has one (LLM
    judges count every HTTP attempt, retries included), else from the outcomes (a call_id that
    was not served from the ledger is a call; ``extra["cost_usd"]`` if given)."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge
        self.spend = judge.spend
        self.base = self._read()
        self.calls = 0
        self.cost: float = 0.0
        self.answered = len(self.spend.answered_s) if self.spend is not None else 0
        self.timeouts = self.spend.timeouts if self.spend is not None else 0

    def hint(self, stage: str) -> str | None:
        """A line when this stage's calls timed out only because the server is slow
        (toolex.llm.timeouts), from the judge's spend since the stage began."""
        policy, client = self.judge.policy, self.judge.client
        timeout_s = policy.timeout_s if policy is not None else None
        if self.spend is None or timeout_s is None or client is None:
            return None
        answered = self.spend.answered_s[self.answered :]
        timeouts = self.spend.timeouts - self.timeouts
        setting = setting_for(client.provider)
        return slow_server_note(stage, answered, timeouts, float(timeout_s), setting)

    def _read(self) -> tuple[int, float]:
        if self.spend is None:
            return 0, 0.0
        return self.spend.attempts, self.spend.cost_usd

    def refresh(self) -> None:
        """Read the judge's spend counter again: attempts recorded since the last outcome (of
        tasks still waiting for an answer, or stopped unfinished) count as soon as they are."""
        if self.spend is not None:
            attempts, cost = self._read()
            self.calls, self.cost = attempts - int(self.base[0]), cost - float(self.base[1])

    def update(self, outcome: Outcome) -> None:
        if self.spend is not None:
            self.refresh()
            return
        if outcome.call_id and not outcome.extra.get("cached"):
            self.calls += 1
        spent = outcome.extra.get("cost_usd")
        if isinstance(spent, int | float):
            self.cost += float(spent)


class _Metered:
    """A stage's progress with its calls and cost so far on each of its own reports, the pulses
    the LLM executor sends while it waits for answers included (toolex.llm.executor reports to
    the installed reporter): the calls shown move as calls are made, not only when a task
    finishes. A task opened inside the stage (an embedding pass) reports as it is."""

    def __init__(self, inner: Progress, meter: Meter) -> None:
        self.inner, self.meter, self.depth = inner, meter, 0

    def start(self, label: str, total: int, *, unit: str = "items") -> None:
        self.depth += 1
        self.inner.start(label, total, unit=unit)

    def advance(self, n: int = 1, **fields: Field) -> None:
        if self.depth == 1:
            self.meter.refresh()
            fields = {"calls": self.meter.calls, "cost_usd": self.meter.cost, **fields}
        self.inner.advance(n, **fields)

    def finish(self) -> None:
        self.depth -= 1
        self.inner.finish()


class Tasks(Protocol):
    """What run_judged takes: a list, or tasks read as the judge asks for them, whose number is
    known before (toolex.pipeline.audit.PendingAudits)."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[object]: ...


def run_judged(
    ctx: StageContext,
    counts: StageCounts,
    tasks: Tasks,
    judge: Judge,
    on_ok: Callable[[Writer, Outcome], str | None],
) -> None:
    """Feed ``tasks`` to ``judge.<stage>`` (the stage ``counts`` are of) and store each outcome
    as it completes.

    ``on_ok`` writes a successful outcome and returns an error message when the outcome is
    unusable (e.g. wrong k); errors and failed outcomes land in stage_failures.
    """
    stage = counts.stage
    counts.tasks += len(tasks)
    meter = Meter(judge)
    progress = _Metered(ctx.progress, meter)
    # the label names the task: what is judged, of which benchmark, by whom
    progress.start(f"{stage} {ctx.benchmark} ({judge.spec})", len(tasks), unit="tasks")
    # audit's tasks are read as the judge iterates them (PendingAudits: a length and an
    # iterator, not a list): every judge only iterates the tasks it is handed
    outcomes = answers(judge, stage, cast("Sequence[Any]", tasks))
    try:
        with reporting(progress), Writer(ctx.store, ctx.base()) as writer:
            for outcome in outcomes:
                meter.update(outcome)
                with writer.outcome():
                    _store(ctx, counts, writer, outcome, on_ok)
                # the stage's own calls: a line that reads "audit ... 7 calls" must not count
                # the verifier's (the run's total is the ledger's and the stage rows' sum)
                progress.advance(1)
    finally:
        # Closed here, not when the traceback lets go of it: a judge's executor records the
        # attempts of the tasks still in flight when it closes, and they are this stage's calls
        # (the stage row once showed 9 calls where the ledger held 12).
        outcomes.close()
        meter.refresh()
        counts.calls, counts.cost_usd = meter.calls, meter.cost
        counts.hint = meter.hint(stage)
        ctx.calls += meter.calls
        ctx.cost += meter.cost
        progress.finish()


def _store(
    ctx: StageContext,
    counts: StageCounts,
    writer: Writer,
    outcome: Outcome,
    on_ok: Callable[[Writer, Outcome], str | None],
) -> None:
    """Write one outcome, or the failure it is, and count it (under ``counts.stage``)."""
    stage = counts.stage
    error = outcome.error or "judge returned no answer"
    problem: str | None = error
    if outcome.ok and outcome.value is not None:
        problem = on_ok(writer, outcome)
    if problem is None:
        counts.ok += 1
        if ctx.retry_failed:  # only a retried task can have a failure to clear
            writer.add(
                "stages/0_run/08_clear_failure.sql",
                {"stage": stage, "task_key": outcome.key},
            )
    else:
        counts.failed += 1
        writer.add(
            "stages/0_run/07_record_failure.sql",
            {
                "stage": stage,
                "task_key": outcome.key,
                "error": redact_secrets(problem),  # a server may echo a key
                "call_id": outcome.call_id,
            },
        )
