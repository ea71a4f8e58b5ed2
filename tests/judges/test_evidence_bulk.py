"""The offline verifier's bulk path (``HeuristicJudge.verify``, toolex.judges.evidence_bulk) gives
the verdicts and evidence of its per-pair reference (``judge_pair``, ``EvidenceReader.read``) on
the pairs the pipeline hands it: the bundled sample's and a ToolRet task's (model cards, function
signatures), decomposed and given candidates as `toolex expand` does.

Issue 34 changes how fast the rules run, never what they say: whoever changes a rule (or how a
verdict reads the evidence) finds here any pair where the two paths part."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from toolex.judges.base import Outcomes, VerifyTask
from toolex.judges.checks import findings
from toolex.judges.evidence_bulk import read_many, score_many
from toolex.judges.heuristic import HeuristicJudge
from toolex.loaders import load_stabletoolbench, load_toolret
from toolex.pipeline.runner import run_expansion
from toolex.resources import data_path
from toolex.store import Store


class _Capture(HeuristicJudge):
    """The heuristic judge, keeping the verify tasks the pipeline gives it unanswered (the
    tests below answer them, twice)."""

    def __init__(self, store: Store, benchmark: str) -> None:
        super().__init__(store, benchmark=benchmark)
        self.captured: list[VerifyTask] = []

    def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes:
        self.captured += tasks
        return _unanswered()


def _unanswered() -> Outcomes:
    yield from ()


def _pairs(store: Store, benchmark: str, limit: int) -> tuple[HeuristicJudge, list[VerifyTask]]:
    judge = _Capture(store, benchmark=benchmark)
    run_expansion(
        store, benchmark, judge, stages=("decompose", "candidates", "verify"), limit=limit
    )
    return judge, judge.captured


@pytest.fixture(scope="module")
def sample_pairs(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Store, list[VerifyTask]]]:
    store = Store.open(tmp_path_factory.mktemp("bulk") / "sample.duckdb")
    load_stabletoolbench(store, data_path("sample"), name="sample")
    _, tasks = _pairs(store, "sample", 40)
    yield store, tasks
    store.close()


@pytest.fixture(scope="module")
def toolret_pairs(
    shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Store, list[VerifyTask]]]:
    store = Store.open(tmp_path_factory.mktemp("bulk") / "toolret.duckdb")
    load_toolret(
        store, shared_data / "toolret", tasks=["gorilla-huggingface", "apibank"], name="toolret"
    )
    _, tasks = _pairs(store, "toolret", 50)
    yield store, tasks
    store.close()


@pytest.fixture(scope="module")
def toolret_more_pairs(
    shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Store, list[VerifyTask]]]:
    """The two ToolRet tasks the fixture above leaves out (generated function libraries,
    tool-making code), so every shared task's documents go through both paths."""
    store = Store.open(tmp_path_factory.mktemp("bulk") / "toolret_more.duckdb")
    load_toolret(store, shared_data / "toolret", tasks=["apigen", "toolink"], name="toolret")
    _, tasks = _pairs(store, "toolret", 60)
    yield store, tasks
    store.close()


def _compare(store: Store, benchmark: str, tasks: list[VerifyTask], mode: str) -> None:
    judge = HeuristicJudge(store, benchmark=benchmark, mode=mode)
    bulk = [o.value for o in judge.verify(tasks)]
    one = [judge.judge_pair(t.subquery, t.candidate, t.reference, t.request) for t in tasks]
    assert len(bulk) == len(one) == len(tasks)
    differ = [(t.key, b, o) for t, b, o in zip(tasks, bulk, one, strict=True) if b != o]
    assert differ == []
    if mode == "strict":
        # both kinds of verdict occur, or the comparison proves little
        assert any(v.accepted for v in one) or any("do not show one act" in v.reason for v in one)
        assert any(not v.accepted and "do not show one act" not in v.reason for v in one)


@pytest.mark.parametrize("mode", ["strict", "prescreen"])
def test_bulk_verdicts_equal_per_pair_on_the_sample(
    sample_pairs: tuple[Store, list[VerifyTask]], mode: str
) -> None:
    store, tasks = sample_pairs
    assert len(tasks) > 1000
    _compare(store, "sample", tasks, mode)


def test_bulk_verdicts_equal_per_pair_on_toolret(
    toolret_pairs: tuple[Store, list[VerifyTask]],
) -> None:
    """Strict: the path that skips measuring vetoed pairs (the pre-screen reads every pair's
    measurements, which test_bulk_evidence_equals_per_pair compares)."""
    store, tasks = toolret_pairs
    assert len(tasks) > 500
    _compare(store, "toolret", tasks, "strict")


def test_bulk_verdicts_equal_per_pair_on_apigen_and_toolink(
    toolret_more_pairs: tuple[Store, list[VerifyTask]],
) -> None:
    store, tasks = toolret_more_pairs
    assert len(tasks) > 1000
    _compare(store, "toolret", tasks, "strict")


def test_bulk_evidence_equals_per_pair(
    sample_pairs: tuple[Store, list[VerifyTask]], toolret_pairs: tuple[Store, list[VerifyTask]]
) -> None:
    """Every measurement of every pair, not only the verdicts they give."""
    for (store, tasks), benchmark in ((sample_pairs, "sample"), (toolret_pairs, "toolret")):
        reader = HeuristicJudge(store, benchmark=benchmark).reader()
        bulk = read_many(reader, tasks)
        one = [reader.read(t.subquery, t.candidate, t.reference, t.request) for t in tasks]
        assert [b == o for b, o in zip(bulk, one, strict=True)] == [True] * len(tasks)


def test_strict_measurements_equal_per_pair(
    sample_pairs: tuple[Store, list[VerifyTask]], toolret_pairs: tuple[Store, list[VerifyTask]]
) -> None:
    """The four measurements a strict verdict reads (``score_many``, which embeds only the
    texts they compare) equal ``read``'s, on every pair that passes every point."""
    for (store, tasks), benchmark in ((sample_pairs, "sample"), (toolret_pairs, "toolret")):
        reader = HeuristicJudge(store, benchmark=benchmark).reader()
        clear = [t for t in tasks if not findings(t.subquery, t.candidate, t.reference, t.request)]
        assert len(clear) > 20
        scored = score_many(reader, clear)
        one = [reader.read(t.subquery, t.candidate, t.reference, t.request) for t in clear]
        got = [(s.about_sim, s.doc_sim, s.object_match, s.cover) for s in scored]
        assert got == [(o.about_sim, o.doc_sim, o.object_match, o.cover) for o in one]
