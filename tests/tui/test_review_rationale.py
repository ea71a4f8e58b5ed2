"""Issue 26.3: the review screen shows the judge's rationale below the checklist when the sample
was drawn with it (`review sample --show-rationale`), and nothing of the judge otherwise. On the
report fixture (tests/reports/fixtures.py: every audit reason is "fixture <status>")."""

from __future__ import annotations

import pytest
from reports.fixtures import build
from textual.widgets import Static
from toolex_tui.app import ToolexApp
from toolex_tui.screens.review import ReviewScreen

from toolex.review import draw_sample
from toolex.store import Store

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("show", [True, False])
async def test_the_rationale_follows_the_checklist_when_the_sample_shows_it(
    store: Store, show: bool
) -> None:
    build(store)
    draw_sample(store, "s", benchmark="toolret", size=3, seed=1, show_rationale=show)
    app = ToolexApp(store, review={"sample_id": "s", "role": "reviewer1", "reviewer": "ann"})
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        seen = []
        for _ in screen.items:
            seen.append(str(screen.query_one("#r-members", Static).render()))
            screen.action_move(1)
            await pilot.pause()
    if show:
        assert all("the judge's rationale" in s and "fixture valid" in s for s in seen)
        assert any("accepted by heuristic: fixture" in s for s in seen)
    else:
        assert not any("rationale" in s or "fixture" in s for s in seen)
