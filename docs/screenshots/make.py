"""Export SVG screenshots of the main TUI screens (and PNG copies when cairosvg is installed).

    python docs/screenshots/make.py STORE [OUT_DIR]

STORE is a toolex store built from ../shared/data/stabletoolbench, e.g.:

    toolex load stabletoolbench ../shared/data/stabletoolbench --db stb.duckdb
    toolex expand --benchmark stabletoolbench --judge heuristic --db stb.duckdb
    toolex retrieve --benchmark stabletoolbench --retriever bm25 --run bm25 --scope benchmark \\
        --db stb.duckdb

The review screenshot needs a sample and labels, so it works on a temporary copy of STORE.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

from toolex_tui.app import ToolexApp
from toolex_tui.data import Browser, QueryFilter, open_browse_store
from toolex_tui.messages import OpenTool

from toolex.review import Label, draw_sample, items_for, save_label
from toolex.store import Store

PNG_OF = ("06_query_detail_large", "09_review_reviewer")


def pick_query(store: Store) -> str:
    """A multi-tool query whose GT tool bm25 missed in its top 10 while an equivalent is in."""
    rows = (
        Browser(store)
        .page(QueryFilter(equiv_run="bm25", min_valid=2), sort="n_gt", descending=True)
        .rows
    )
    return rows[0]["query_id"]


async def shoot(app: ToolexApp, out: Path, name: str, keys=(), size=(80, 24), setup=None):
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if setup:
            await setup(app, pilot)
        if keys:
            await pilot.press(*keys)
        await pilot.pause(0.3)
        app.save_screenshot(str(out / f"{name}.svg"))
    print(out / f"{name}.svg")


async def main(db: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    store = open_browse_store(db)
    qid = pick_query(store)

    async def search_qid(app, pilot):
        await pilot.press("slash", *qid, "enter")

    await shoot(ToolexApp(store), out, "01_query_list")
    await shoot(
        ToolexApp(store, initial_filter=QueryFilter(score_run="bm25", beats=True)),
        out,
        "02_query_list_bm25_new_beats_old",
        keys=["s", "s", "s", "s", "s", "s"],
    )
    await shoot(ToolexApp(store), out, "03_filters", keys=["f"])
    await shoot(ToolexApp(store), out, "04_query_detail", setup=search_qid, keys=["enter"])

    async def scroll_down(app, pilot):
        await search_qid(app, pilot)
        await pilot.press("enter", "tab", "tab", "tab")
        app.screen.query_one("#q-runs").scroll_visible(animate=False)

    await shoot(ToolexApp(store), out, "05_query_detail_combinations_runs", setup=scroll_down)
    await shoot(
        ToolexApp(store),
        out,
        "06_query_detail_large",
        setup=search_qid,
        keys=["enter"],
        size=(120, 50),
    )

    # the tool accepted as an equivalent in the most queries
    item = store.con.execute(
        "SELECT v.item_id FROM verdicts v JOIN subqueries s "
        "USING (benchmark, expansion, query_id, slot) WHERE v.accepted "
        "AND v.item_id <> s.reference GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchone()[0]

    async def tool(app, pilot):
        app.post_message(OpenTool(item))

    await shoot(ToolexApp(store), out, "07_tool_detail", setup=tool)
    await shoot(ToolexApp(store), out, "08_help", keys=["question_mark"], size=(100, 40))
    store.close()

    tmp = Path(tempfile.mkdtemp()) / "copy.duckdb"
    shutil.copyfile(db, tmp)
    rw = Store.open(tmp)
    draw_sample(rw, "audit", benchmark="stabletoolbench", size=60, seed=13)
    first = items_for(rw, "audit", "reviewer1")[0]
    save_label(rw, "audit", first, role="reviewer1", reviewer="ann", label=Label("valid"))
    save_label(
        rw,
        "audit",
        first,
        role="reviewer2",
        reviewer="bob",
        label=Label("invalid", "near_synonym", "returns a list, not the details"),
    )
    await shoot(
        ToolexApp(rw, review={"sample_id": "audit", "role": "reviewer2", "reviewer": "bob"}),
        out,
        "09_review_reviewer",
    )
    await shoot(
        ToolexApp(rw, review={"sample_id": "audit", "role": "adjudicator", "reviewer": "cat"}),
        out,
        "10_review_adjudicator",
    )
    rw.close()


if __name__ == "__main__":
    target = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).parent
    asyncio.run(main(sys.argv[1], target))
    try:
        import cairosvg
    except ImportError:
        sys.exit(0)
    for name in PNG_OF:  # two PNG previews; the SVGs are the screenshots
        svg = target / f"{name}.svg"
        cairosvg.svg2png(url=str(svg), write_to=str(svg.with_suffix(".png")))
