"""Before and after issue 11 on shared data: a small StableToolBench expansion with every
candidate accepted (so its products are real-sized: up to 6^5 combinations, some past the audit
safety limit), assembled lazily and by the materialising SQL it replaced. The tables match byte
for byte up to each query's audit budget but for the rule's rejections, which the lazy one
counts per query (schema 066), as it counts what it leaves out."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from pipeline.assemble_reference import run_reference, stored_prefix, table
from pipeline.fake_judge import FakeJudge
from toolex.judges.base import Judge, Outcome, Outcomes, Verdict, VerifyTask
from toolex.judges.heuristic import HeuristicJudge
from toolex.loaders import load_stabletoolbench
from toolex.pipeline import assemble
from toolex.pipeline.runner import Settings, run_expansion
from toolex.pipeline.settings import AUDIT_SAFETY_LIMIT
from toolex.pipeline.stage import StageContext
from toolex.store import Store

pytestmark = pytest.mark.shared_data
BENCHMARK = "stabletoolbench"


class AcceptAll(FakeJudge):
    """A verifier that accepts every candidate: the largest products the candidates allow."""

    spec = "accept-all"
    makes_calls = False

    def verify(self, tasks: Sequence[VerifyTask]) -> Outcomes:
        for task in tasks:
            yield Outcome(task.key, True, Verdict(True, "accepted (test)"))


@pytest.fixture(scope="module")
def verified(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    store = Store.open(tmp_path_factory.mktemp("stb") / "s.duckdb")
    load_stabletoolbench(store, shared_data / "stabletoolbench", name=BENCHMARK)
    judge = HeuristicJudge(store, benchmark=BENCHMARK)
    judges: dict[str, Judge] = {"decompose": judge, "verify": AcceptAll(), "audit": judge}
    stages = ("decompose", "candidates", "verify")
    run_expansion(store, BENCHMARK, judges, stages=stages, limit=40, settings=Settings(depth=5))
    yield store
    store.close()


def copy_inputs(store: Store, expansion: str) -> None:
    for name in ("subqueries", "candidates", "verdicts"):
        store.con.execute(
            f"INSERT INTO {name} SELECT * REPLACE (? AS expansion) FROM {name} "
            "WHERE expansion = 'default'",
            [expansion],
        )


@pytest.mark.parametrize(("mode", "audit_cap"), [("feeds", None), ("strict", 5)])
def test_the_lazy_assembly_stores_what_the_materialising_one_did(
    verified: Store, mode: str, audit_cap: int | None
) -> None:
    new, ref = f"new-{mode}", f"ref-{mode}"
    copy_inputs(verified, new)
    copy_inputs(verified, ref)
    ids = [
        r[0] for r in verified.con.execute("SELECT DISTINCT query_id FROM subqueries").fetchall()
    ]
    assemble.run(StageContext(verified, BENCHMARK, new, ids), audit_cap, mode)
    run_reference(StageContext(verified, BENCHMARK, ref, ids), audit_cap, mode)
    budget = AUDIT_SAFETY_LIMIT if audit_cap is None else audit_cap
    combos, items, rejected, repeated, left_out = stored_prefix(verified, ref, budget)
    assert table(verified, "combinations", new).equals(combos)
    assert table(verified, "combination_items", new).equals(items)
    assert table(verified, "dependencies", new).equals(table(verified, "dependencies", ref))
    counted = verified.con.execute(
        "SELECT query_id, rejected_platform, repeated, unstored FROM combination_products "
        "WHERE expansion = ?",
        [new],
    ).fetchall()
    assert {q: r for q, r, _, _ in counted} == rejected
    assert {q: d for q, _, d, _ in counted} == repeated
    assert {q: u for q, _, _, u in counted} == left_out
    assert any(repeated.values())  # every candidate accepted: tools repeat across slots
    # the data exercise what changed: products past the budget (under the safety limit none
    # is now: repeats do not use the budget, and no query holds 1,000 distinct tool sets),
    # and combinations the rule rejected (counted, never stored)
    assert any(left_out.values()) or audit_cap is None
    assert any(rejected.values()) or mode == "feeds"
    assert "rejected_platform" not in combos.column("status").to_pylist()
    assert verified.rows("checks/pipeline_combination_shape.sql") == []
    repeats = verified.rows("checks/pipeline_combinations_distinct.sql")
    assert [r for r in repeats if r["expansion"] == new] == []  # the reference keeps them all
