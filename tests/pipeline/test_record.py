"""An expansion records exactly the settings and judge each stage ran with; a run asking other
settings for a stage with outputs is refused, and --replace recomputes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from pipeline.fixtures import build
from pipeline.helpers import overlap_search
from toolex.judges.base import Judge, Outcomes, VerifyTask
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline.record import SettingsConflict, stored
from toolex.pipeline.runner import RunReport, Settings, run_expansion
from toolex.store import Store

TABLES = ("subqueries", "candidates", "verdicts", "combinations", "dependencies", "expansions")


def expand(store: Store, judge: Judge | dict[str, Judge] | None = None, **kw: Any) -> RunReport:
    return run_expansion(store, "b", judge or HeuristicJudge(store), search=overlap_search, **kw)


def config(store: Store, expansion: str = "default") -> dict[str, Any]:
    return stored(store, "b", expansion)


def snapshot(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    return {t: sorted(store.con.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}


def test_the_record_holds_only_the_stages_that_ran(store: Store) -> None:
    build(store)
    expand(store, stages=["decompose"])
    assert config(store) == {"judges": {"decompose": "heuristic"}}
    expand(store, stages=["candidates", "verify"], settings=Settings(depth=5))
    assert config(store) == {
        "judges": {"decompose": "heuristic", "verify": "heuristic"},
        "retriever": "bm25",
        "depth": 5,
        "scope": "benchmark",  # the pooled library, resolved as the run used it
        "rendering": "default",
    }
    expand(store, settings=Settings(depth=5, audit_cap=3))
    assert config(store) == {
        "judges": {"decompose": "heuristic", "verify": "heuristic", "audit": "heuristic"},
        "retriever": "bm25",
        "depth": 5,
        "scope": "benchmark",
        "rendering": "default",
        "audit_cap": 3,
        "audit_safety_limit": None,  # a capped audit has no safety limit to record
        "platform_rule": "feeds",
        "rrf_k": 60,
    }


def test_other_settings_are_refused_before_anything_runs(store: Store) -> None:
    build(store)
    expand(store)
    before = snapshot(store)
    with pytest.raises(SettingsConflict) as refused:
        expand(store, settings=Settings(depth=5, audit_cap=2, platform_rule="strict"))
    message = str(refused.value)
    assert "candidates.depth: 20 -> 5" in message
    assert "assemble.audit_cap: none -> 2" in message
    assert "assemble.platform_rule: feeds -> strict" in message
    assert "--expansion" in message and "--replace" in message
    assert snapshot(store) == before  # nothing ran, nothing was recorded


def test_another_judge_for_a_stage_with_outputs_is_refused(store: Store) -> None:
    build(store)
    expand(store)
    other = HeuristicJudge(store)
    other.spec = "heuristic:other"
    with pytest.raises(SettingsConflict, match=r"audit\.judge: heuristic -> heuristic:other"):
        expand(store, {"decompose": HeuristicJudge(store), "verify": other, "audit": other})


def test_a_stage_without_outputs_takes_new_settings(store: Store) -> None:
    build(store)
    expand(store, stages=["decompose"])
    expand(store, stages=["candidates"], settings=Settings(depth=2))
    assert config(store)["depth"] == 2
    # settings of stages that did not run are neither checked nor recorded
    expand(store, stages=["decompose"], settings=Settings(depth=9, audit_cap=1))
    assert config(store)["depth"] == 2 and "audit_cap" not in config(store)


def test_replace_drops_the_outputs_and_records_the_settings_used(store: Store) -> None:
    build(store)
    expand(store)
    expand(store, settings=Settings(depth=1, audit_cap=0), replace=True)
    recorded = config(store)
    assert (recorded["depth"], recorded["audit_cap"]) == (1, 0)
    # the candidates really are the new depth's: one retrieved per sub-query (+ a missed reference)
    worst = store.con.execute(
        "SELECT max(rank) FROM candidates WHERE score IS NOT NULL"
    ).fetchall()[0]
    assert worst == (1,)
    # a cap of 0 audits nothing: only the originals are stored, the rest is counted as cut
    assert (
        store.con.execute("SELECT count(*) FROM combinations WHERE NOT is_original").fetchall()[0][
            0
        ]
        == 0
    )
    cut = store.con.execute(
        "SELECT DISTINCT judge FROM combination_products WHERE unstored > 0"
    ).fetchall()
    assert cut == [("audit_cap",)]


def test_an_interrupted_stage_keeps_its_settings_recorded(store: Store) -> None:
    build(store)

    class Crash(HeuristicJudge):
        def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes:
            for i, outcome in enumerate(super().verify(tasks)):
                if i == 1:
                    raise KeyboardInterrupt
                yield outcome

    with pytest.raises(KeyboardInterrupt):
        expand(store, Crash(store))
    assert config(store)["judges"]["verify"] == "heuristic"
    assert config(store)["depth"] == 20
    with pytest.raises(SettingsConflict, match="candidates.depth: 20 -> 3"):
        expand(store, settings=Settings(depth=3))


def test_a_record_that_changes_nothing_writes_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runner records each stage before and after it runs: the second record of the same
    settings rewrote the same text (a commit, two with its count); one that differs is written."""
    import json

    from toolex import expansions
    from toolex.pipeline import record

    build(store)
    expand(store, stages=["decompose"])
    text = store.con.execute("SELECT CAST(config AS VARCHAR) FROM expansions").fetchall()
    assert text == [(json.dumps({"judges": {"decompose": "heuristic"}}),)]
    written: list[dict[str, object]] = []
    real = expansions.record_config

    def spy(s: Store, benchmark: str, expansion: str, config: dict[str, object]) -> None:
        written.append(dict(config))
        real(s, benchmark, expansion, config)

    monkeypatch.setattr(expansions, "record_config", spy)
    wanted = Settings().per_stage(
        dict.fromkeys(("decompose", "verify", "audit"), HeuristicJudge(store))
    )
    assert record.record(store, "b", "default", wanted, ran=["decompose"]) == {
        "judges": {"decompose": "heuristic"}
    }
    assert written == []  # the same text as stored
    record.record(store, "b", "default", wanted, ran=["candidates"])
    assert [sorted(c) for c in written] == [["depth", "judges", "rendering", "retriever", "scope"]]
    assert config(store)["depth"] == 20
