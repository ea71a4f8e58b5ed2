"""Which library stage 2 searches: the pooled one by default (the paper's "full tool library"),
the query's task as an option, and an alternative rendering (`--rendering`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click import Command

from pipeline.helpers import add_benchmark, add_item, add_query
from toolex.errors import InputError
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline import settings
from toolex.pipeline.record import stored
from toolex.pipeline.runner import RunReport, Settings, run_expansion
from toolex.store import Store

FORECAST = {"name": "forecast", "description": "Get the weather forecast for a city."}
OTHER_TASK = {"name": "city weather", "description": "Weather forecast of a city, by day."}
STOCK = {"name": "stock quote", "description": "Get the stock price quote for a ticker."}


@pytest.fixture
def tasks(store: Store) -> Store:
    add_benchmark(store)
    add_item(store, "a::forecast", FORECAST, task="t1")
    add_item(store, "a::stock", STOCK, task="t1")
    add_item(store, "z::weather", OTHER_TASK, task="t2")  # an equivalent in another task
    add_query(store, "q", "Get the weather forecast for Paris", ["a::forecast"], task="t1")
    return store


def retrieved(store: Store, expansion: str) -> set[Any]:
    return {
        r[0]
        for r in store.con.execute(
            "SELECT item_id FROM candidates WHERE expansion = ? AND score IS NOT NULL",
            [expansion],
        ).fetchall()
    }


def expand(store: Store, expansion: str, **kw: Any) -> RunReport:
    return run_expansion(
        store,
        "b",
        HeuristicJudge(store),
        expansion=expansion,
        stages=["decompose", "candidates"],
        settings=Settings(**kw),
    )


def test_the_default_library_is_pooled_and_task_is_an_option(tasks: Store) -> None:
    assert settings.SCOPE == Settings().scope == "benchmark"
    expand(tasks, "pooled")
    assert "z::weather" in retrieved(tasks, "pooled")
    expand(tasks, "per-task", scope="task")
    assert "z::weather" not in retrieved(tasks, "per-task")
    assert stored(tasks, "b", "per-task")["scope"] == "task"


def test_candidates_can_search_an_alternative_rendering(tasks: Store) -> None:
    for item_id, text in [("a::forecast", "forecast weather city"), ("a::stock", "stock")]:
        tasks.con.execute(
            "INSERT INTO item_docs VALUES ('b', ?, 'de', ?, ?)",
            [item_id, json.dumps({"description": text}), text],
        )
    report = expand(tasks, "de", rendering="de")
    # the rendering documents two items; the third is searched in its default text and counted
    # (issue 26.2: a partial rendering never shrinks the library)
    assert retrieved(tasks, "de") == {"a::forecast", "a::stock", "z::weather"}
    (candidates,) = [s for s in report.stages if s.stage == "candidates"]
    assert candidates.notes["rendering_fallback"] == 1
    assert stored(tasks, "b", "de")["rendering"] == "de"
    with pytest.raises(InputError, match="rendering 'nope'"):
        expand(tasks, "nope", rendering="nope")


def test_the_cli_defaults_follow_the_settings() -> None:
    from toolex.cli.expand import expand as expand_cmd
    from toolex.cli.retrieve import retrieve

    def default(cmd: Command, name: str) -> object:
        return next(p.default for p in cmd.params if p.name == name)

    assert default(retrieve, "scope") == default(expand_cmd, "scope") == settings.SCOPE
    assert default(expand_cmd, "audit_cap") is None and settings.AUDIT_CAP is None
