"""What the rules now read once per step or per document (issue 34) is what they computed for
each pair before: each memoised part is compared with the expression it replaced, on
hand-picked cases and on a seeded sweep of the words and characters that decide it. The verdicts
themselves are compared path against path in test_evidence_bulk.py."""

from __future__ import annotations

import gc
import random
import re
from collections.abc import Sequence

import numpy as np
import pytest

from toolex.judges import checks
from toolex.judges.base import ToolDoc, VerifyTask
from toolex.judges.constraints import _NUMBER, _unnumbered
from toolex.judges.coverage import _ARTICLES, _modifier
from toolex.judges.heuristic import HeuristicJudge
from toolex.judges.lexicon import GENERIC_NAME_WORDS, base_verb
from toolex.judges.specifics import _ASKED_PROVIDER, _TARGETS, _asked_providers, _target_lists
from toolex.tooldoc import fields as df

_SPLIT = re.compile(r"\s*(?:,|\band\b|\bor\b)\s*")


def _target_lists_per_pair(subquery: str) -> list[list[str]]:
    """listed_targets' loop as it read the sub-query for every pair."""
    out = []
    for m in _TARGETS.finditer(subquery):
        words = [w for w in _SPLIT.split(m.group(1)) if w]
        if len(words) < 2:
            continue
        out.append(words)
    return out


def _modifier_per_pair(tool: ToolDoc, obj: str) -> str | None:
    """coverage._modifier as it read the description for every pair and object."""
    words = df.split_words(df.description(tool.doc))
    for i, word in enumerate(words[1:], 1):
        if df.stem(word) == obj:
            before = words[i - 1]
            after_article = i > 1 and words[i - 2] in _ARTICLES
            if before in df.STOPWORDS or before.isdigit() or len(before) < 3:
                return None
            if base_verb(before) and not after_article:
                return None
            return before if before not in GENERIC_NAME_WORDS else None
    return None


def _tool(key: object, name: str, description: str = "") -> ToolDoc:
    doc = {"name": name, "description": description}
    return ToolDoc(f"memo-test::{key}", name, "memo", doc, f"{name}\n{description}")


@pytest.mark.parametrize(
    "subquery",
    [
        "Convert the colour to RGB and Hex",
        "convert 5 km into miles, feet or yards and inches",
        "Translate it to French",
        "turn to rgb, and to hex or cmyk",
        "",
    ],
)
def test_a_step_lists_the_forms_it_listed_per_pair(subquery: str) -> None:
    assert [list(w) for w in _target_lists(subquery)] == _target_lists_per_pair(subquery)


def test_the_forms_listed_agree_on_a_sweep() -> None:
    rng = random.Random(34)
    vocab = ["to", "into", "and", "or", ",", "RGB", "hex", "Km", "x-y", "1a", "the", " "]
    texts = [" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 9))) for _ in range(5000)]
    differ = [t for t in texts if [list(w) for w in _target_lists(t)] != _target_lists_per_pair(t)]
    assert differ == []


@pytest.mark.parametrize(
    "text",
    [
        "Find flats using the Zoopla API and prices from JobSearch APIs",
        "with Google Maps API",
        "from the X.com API, via the AT&T API",
        "nothing named here",
    ],
)
def test_a_step_names_the_providers_it_named_per_pair(text: str) -> None:
    per_pair = [
        (m.group(1), {df.stem(w) for w in df.split_words(m.group(1))})
        for m in _ASKED_PROVIDER.finditer(text)
    ]
    assert [(name, set(parts)) for name, parts in _asked_providers(text)] == per_pair


def test_a_description_gives_each_object_the_modifier_it_gave_per_pair() -> None:
    rng = random.Random(35)
    vocab = [
        "a", "the", "launch", "road", "vehicle", "vehicles", "get", "gets", "data", "of", "is",
        "2024", "men", "women", "marks", "api", "an", "xy", "cities", "city", "getting",
    ]  # fmt: skip
    objects = sorted({df.stem(w) for w in vocab}) + ["absent"]
    for i in range(3000):
        text = " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 12)))
        tool = _tool(i, f"tool {i}", text)
        got = [_modifier(tool, obj) for obj in objects]
        assert got == [_modifier_per_pair(tool, obj) for obj in objects], text


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Best Sign 1", "best sign #"), ("v2-API-12", "v2-api-#"), ("", ""), ("ABC", "abc")],
)
def test_a_name_without_its_numbers_is_the_substitution(name: str, expected: str) -> None:
    tool = _tool(f"name {name}", name)
    assert _unnumbered(tool) == expected == _NUMBER.sub("#", name).lower()


@pytest.mark.parametrize(
    "text", ["XMLHttpRequest", "getUserID", "aB", "A", "", "ABCd", "v2Beta", "é É", "snake_Case"]
)
def test_camel_case_is_spaced_as_the_pattern_spaced_it(text: str) -> None:
    assert df._camel_spaced(text) == df._CAMEL.sub(" ", text)


def test_camel_case_spacing_agrees_with_the_pattern_on_a_sweep() -> None:
    rng = random.Random(36)
    texts = [
        "".join(rng.choice("aAbBzZ09_ .é") for _ in range(rng.randint(0, 12)))
        for _ in range(50_000)
    ]
    assert [t for t in texts if df._camel_spaced(t) != df._CAMEL.sub(" ", t)] == []


def _tasks(n: int) -> Sequence[VerifyTask]:
    ref = _tool(90_001, "get_weather", "Gets the current weather of a city")
    cands = [_tool(90_002 + i, f"city_weather_{i}", "Weather of a city today") for i in range(n)]
    return [VerifyTask(f"q/0/{c.item_id}", "weather in Paris", c, ref, "Weather?") for c in cands]


def test_a_batch_is_read_with_the_collector_paused_and_left_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """verify pauses Python's cycle collector while it reads a batch (its allocations set off
    walks of the whole heap), and hands it back as the caller had it, on or off."""
    seen: list[bool] = []
    real = checks.findings

    def watched(
        subquery: str, cand: ToolDoc, ref: ToolDoc, request: str | None = None
    ) -> tuple[checks.Finding, ...]:
        seen.append(gc.isenabled())
        return real(subquery, cand, ref, request)

    monkeypatch.setattr(checks, "findings", watched)
    judge = HeuristicJudge(idf={}, embed=_unit_rows)
    was = gc.isenabled()
    frozen_before = gc.get_freeze_count()
    try:
        for state in (True, False):
            (gc.enable if state else gc.disable)()
            verdicts = [o.value for o in judge.verify(_tasks(3))]
            assert len(verdicts) == 3
            assert gc.isenabled() is state
            # the batch's objects went to the old generation, and nothing stays frozen (a
            # process that froze objects, as `toolex demo` does in a test before, keeps them,
            # less those the batch let go: a frozen object is still freed by its count)
            assert gc.get_freeze_count() <= frozen_before
        gc.enable()
        gc.freeze()  # a process that froze objects itself keeps them frozen
        frozen = gc.get_freeze_count()
        try:
            assert [o.value for o in judge.verify(_tasks(2))] and gc.isenabled()
            assert 0 < gc.get_freeze_count() <= frozen  # not unfrozen (0), nothing added
        finally:
            if frozen_before == 0:
                gc.unfreeze()
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False] * 8


def _unit_rows(texts: Sequence[str]) -> np.ndarray:
    """One unit vector for every text: the embedding plays no part in what is tested here."""
    rows = np.zeros((len(texts), 4), dtype=np.float32)
    rows[:, 0] = 1.0
    return rows
