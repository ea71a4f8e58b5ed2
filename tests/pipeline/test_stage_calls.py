"""Issue 35.13: the stage table's ``calls`` left out the calls of unfinished tasks (9 shown, 12 in
the ledger), and the progress line's calls moved only when a task finished. A stage counts every
attempt its judge recorded, those recorded as it stops included, and its progress reports the
calls made so far on each pulse the LLM executor sends while it waits for answers.

The judge here is a stand-in with the LLM judges' spend counter (toolex.llm.calls.Spend) and an
executor's habits: attempts are recorded before the answer they belong to is yielded, a pulse is
sent to the installed reporter while it waits, and attempts in flight are recorded when the
generator is closed."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pipeline.fake_judge import FakeJudge
from toolex.judges.base import Outcome, Outcomes, Verdict, VerifyTask
from toolex.llm.calls import Spend
from toolex.pipeline.stage import StageContext, StageCounts, Writer, run_judged
from toolex.progress import Field, current
from toolex.store import Store


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple[object, ...]] = []

    def start(self, label: str, total: int | None, *, unit: str = "items") -> None:
        self.events.append(("start", label))

    def advance(self, n: int = 1, **fields: Field) -> None:
        self.events.append(("advance", n, fields.get("calls")))

    def finish(self) -> None:
        self.events.append(("finish",))


class SlowJudge(FakeJudge):
    """Two tasks; three attempts each, the second task still waiting when the stage stops."""

    spec = "stand-in"
    spend: Spend  # what JudgeParts leaves None, this judge has

    def __init__(self) -> None:
        self.spend = Spend()

    def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes:
        try:
            self.spend.attempts += 3  # the first task's attempts, recorded with its answer
            yield Outcome("t1", True, Verdict(False, "no"))
            self.spend.attempts += 2  # the second task's, recorded while it waits
            current().advance(0)  # the executor's pulse
            yield Outcome("t2", True, Verdict(True, "yes"))
        finally:
            self.spend.attempts += 1  # in flight when closed: recorded as the executor closes


def _ctx(store: Store, progress: Recorder) -> StageContext:
    return StageContext(store, "b", "x", ["q"], progress=progress)


def test_the_calls_of_a_stopped_stage_include_those_recorded_as_it_stops(store: Store) -> None:
    counts, judge = StageCounts("verify"), SlowJudge()

    def stop(writer: Writer, outcome: Outcome) -> None:
        raise KeyboardInterrupt  # Ctrl-C at the first answer: the second task is unfinished

    with pytest.raises(KeyboardInterrupt):
        run_judged(_ctx(store, Recorder()), counts, ["t1", "t2"], judge, stop)
    assert counts.calls == judge.spend.attempts == 4  # 3 before the answer, 1 on closing


def test_the_calls_shown_move_with_the_executors_pulses(store: Store) -> None:
    counts, judge, shown = StageCounts("verify"), SlowJudge(), Recorder()
    run_judged(_ctx(store, shown), counts, ["t1", "t2"], judge, lambda w, o: None)
    advances = [e for e in shown.events if e[0] == "advance"]
    assert advances == [("advance", 1, 3), ("advance", 0, 5), ("advance", 1, 5)]
    assert counts.calls == 6 and counts.ok == 2
