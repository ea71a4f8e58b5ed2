"""The pre-screen follows the paper by default and turns on by itself only when its held-out
figures earn it; forced on, it says what it costs."""

from __future__ import annotations

import dataclasses

import pytest

from pipeline.fake_judge import FakeJudge
from toolex.errors import InputError
from toolex.judges.operating_points import held_out
from toolex.pipeline import verify_plan
from toolex.pipeline.verify_plan import (
    PRESCREEN_MIN_DISCARD,
    PRESCREEN_MIN_RECALL,
    VerifyOptions,
    screen_loss,
)


class Calls(FakeJudge):
    makes_calls = True


class Offline(FakeJudge):
    makes_calls = False


def test_by_default_every_candidate_goes_to_a_verifier_that_makes_calls() -> None:
    assert VerifyOptions().resolved(Calls()).prescreen == "off"
    assert VerifyOptions("on").resolved(Calls()).prescreen == "on"
    assert VerifyOptions("on").resolved(Calls()).reuse == "same-step"
    assert VerifyOptions("auto").resolved(Offline()).prescreen == "off"


def test_auto_follows_the_shipped_held_out_figures_which_do_not_earn_the_screen() -> None:
    shipped = held_out(verify_plan.PRESCREEN_JUDGE, None)
    assert shipped is not None and shipped.recall is not None
    assert shipped.recall < PRESCREEN_MIN_RECALL  # 0.966 held out: it loses equivalents
    assert VerifyOptions("auto").resolved(Calls()).prescreen == "off"


def test_auto_turns_the_screen_on_once_refitted_figures_clear_both_bars(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shipped = held_out(verify_plan.PRESCREEN_JUDGE, None)
    assert shipped is not None  # the figures shipped with the screen
    earned = dataclasses.replace(
        shipped, recall=PRESCREEN_MIN_RECALL + 0.01, discarded=PRESCREEN_MIN_DISCARD + 0.01
    )
    monkeypatch.setattr(verify_plan, "held_out", lambda judge, benchmark: earned)
    assert VerifyOptions("auto").resolved(Calls()).prescreen == "on"
    cheap = dataclasses.replace(earned, discarded=PRESCREEN_MIN_DISCARD - 0.01)
    monkeypatch.setattr(verify_plan, "held_out", lambda judge, benchmark: cheap)
    assert VerifyOptions("auto").resolved(Calls()).prescreen == "off"


def test_a_forced_screen_says_what_it_loses_as_measured() -> None:
    said = screen_loss(12)
    assert "12 candidate(s)" in said and "96.6%" in said and "3.4%" in said
    assert "--prescreen off" in said


def test_an_unknown_mode_is_refused_with_the_option_named() -> None:
    with pytest.raises(InputError, match="--prescreen must be one of"):
        VerifyOptions("sometimes").resolved(Calls())
