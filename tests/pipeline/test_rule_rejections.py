"""Issue 26.8: the combinations the dependency rule rejects can be inspected with their reasons.
The assembly counts what the rule rejects (it may be nearly a whole product of 10^8) and keeps
the first REASONS_KEPT of each query, best ranked, with their members and the rule's reason
(table rule_rejections); `toolex stats --rejections` lists them beside each query's count."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pipeline.helpers import add_benchmark
from pipeline.products import add_products
from pipeline.test_assemble_lazy import brute
from toolex.cli import cli
from toolex.pipeline import assemble, record
from toolex.pipeline.stage import StageContext
from toolex.pipeline.stats import rule_rejections
from toolex.store import Store

# The strict rule's case of test_assemble_lazy: r0 and r1 share platform P, so an alternative
# keeps its two tools on one platform. Ranked: the 9 (q, w) and the 6 (q, u) / (s, w) first, all
# rejected; (s, u) 16 pending; the 6 (q, r1) / (r0, w) rejected; (s, r1) 23 pending.
PLATFORMS = {"r0": "P", "r1": "P", "s": "P", "u": "P"} | {f"q{i}": "Q" for i in range(3)}
PLATFORMS |= {f"w{i}": "R" for i in range(3)}
SLOTS = [
    ("r0", [(f"q{i}", i + 1, True) for i in range(3)] + [("s", 9, True)]),
    ("r1", [(f"w{i}", i + 1, True) for i in range(3)] + [("u", 9, True)]),
]
REJECTED_RANKS = [*range(1, 16), *range(17, 23)]  # 21


@pytest.fixture
def bstore(store: Store) -> Store:
    add_benchmark(store)
    add_products(store, {"q": SLOTS}, platforms=PLATFORMS)
    return store


def kept(store: Store) -> list[tuple[Any, ...]]:
    return store.con.execute(
        "SELECT rrf_rank, items, reason FROM rule_rejections ORDER BY rrf_rank"
    ).fetchall()


def test_the_first_rejections_are_kept_with_members_and_reason(
    bstore: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(assemble, "WRITE_BATCH", 4)  # the keep spans several judged batches
    monkeypatch.setattr(assemble, "REASONS_KEPT", 17)
    assemble.run(StageContext(bstore, "b", "default", ["q"]), audit_cap=2, mode="strict")
    rows = kept(bstore)
    assert [r[0] for r in rows] == REJECTED_RANKS[:17]  # best ranked first, 16 skipped
    assert rows[0][1] == ["q0", "w0"]  # ranks 1 + 1
    assert rows[0][2] == (
        "slots 0,1 (the original uses one platform for both (P)) on different platforms: Q vs R"
    )
    assert all("on different platforms" in reason for _, _, reason in rows)
    listed = rule_rejections(bstore, "b")
    assert {r.rejected for r in listed} == {21}  # every rejection counted, 17 shown
    assert [r.rrf_rank for r in listed] == REJECTED_RANKS[:17]
    assert listed[0].members == "q0 + w0"


def test_a_rule_rejecting_thousands_keeps_only_the_first_few(
    bstore: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # three slots on one platform, each tool of its own platform: of 31^3 combinations only
    # the original and the 30 same-platform triples pass, so the rule rejects thousands on the
    # way to the budget; the reasons kept stay REASONS_KEPT, batch after batch
    n = 30
    platforms = {f"r{s}": "P" for s in range(3)}
    platforms |= {f"t{s}_{i}": f"A{i}" for s in range(3) for i in range(n)}
    slots = [(f"r{s}", [(f"t{s}_{i}", i + 1, True) for i in range(n)]) for s in range(3)]
    add_products(bstore, {"big": slots}, platforms=platforms)
    monkeypatch.setattr(assemble, "WRITE_BATCH", 64)
    held = []
    flush = assemble.Batch.flush

    def measured(batch: assemble.Batch) -> None:
        flush(batch)
        held.append(bstore.con.execute("SELECT count(*) FROM assembled_reasons").fetchall()[0][0])

    monkeypatch.setattr(assemble.Batch, "flush", measured)
    assemble.run(StageContext(bstore, "b", "default", ["big"]), audit_cap=10, mode="strict")
    (rejected,) = bstore.con.execute(
        "SELECT rejected_platform FROM combination_products WHERE query_id = 'big'"
    ).fetchall()[0]
    assert rejected > 1000
    (stored,) = bstore.con.execute(
        "SELECT count(*) FROM rule_rejections WHERE query_id = 'big'"
    ).fetchall()[0]
    assert stored == assemble.REASONS_KEPT == max(held)
    ranks = bstore.con.execute(
        "SELECT list(rrf_rank ORDER BY rrf_rank) FROM rule_rejections WHERE query_id = 'big'"
    ).fetchall()[0][0]
    # the oracle: the whole product ranked (test_assemble_lazy.brute), the rule applied by hand
    ranked = brute([[(1.0 / (60 + r), item) for item, r, _ in cands] + [(1.0 / 81, ref)]
                    for ref, cands in slots])  # fmt: skip
    fails = [pos + 1 for pos, (_, items) in enumerate(ranked)
             if len({platforms[i] for i in items}) > 1]  # fmt: skip
    assert ranks == fails[: assemble.REASONS_KEPT]  # the best-ranked rejections


def test_stats_lists_them_and_replace_drops_them(tmp_path: Path) -> None:
    db = str(tmp_path / "r.duckdb")
    with Store.open(db) as store:
        add_benchmark(store)
        add_products(store, {"q": SLOTS}, platforms=PLATFORMS)
        assemble.run(StageContext(store, "b", "default", ["q"]), audit_cap=2, mode="strict")
    res = CliRunner().invoke(
        cli, ["stats", "--db", db, "--benchmark", "b", "--rejections", "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert len(rows) == 20 and {r["rejected"] for r in rows} == {21}
    assert rows[0]["members"] == "q0 + w0" and "Q vs R" in rows[0]["reason"]
    assert "21 combination(s) rejected in 1 query; 20 listed with their reason" in res.stderr
    with Store.open(db) as store:
        record.drop_outputs(store, "b", "default")
        assert kept(store) == []
