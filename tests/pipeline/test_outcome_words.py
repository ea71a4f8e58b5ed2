"""Issue 26.8: "valid" means one thing everywhere. The outcome `expand` ends with, its stage
rows, `stats`, `info` and the report count the same combinations under the same word: valid =
every valid combination, the original included; alternatives = the valid ones other than the
original. (Before, the outcome said 359 valid where its assemble row said 765 and `stats`
1,124: alternatives, originals and both, each called "valid".)"""

from __future__ import annotations

from pipeline.fixtures import build
from pipeline.helpers import overlap_search
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline.outcome import expansion_outcome
from toolex.pipeline.runner import run_expansion
from toolex.pipeline.stats import annotation_rows, combination_counts
from toolex.reports.annotation import annotation_detail_table
from toolex.reports.inputs import ReportContext
from toolex.store import Store


def test_valid_and_alternatives_agree_across_outcome_stats_info_and_report(store: Store) -> None:
    build(store)
    report = run_expansion(store, "b", HeuristicJudge(store), search=overlap_search)
    done = expansion_outcome(store, "b", "default")
    # q1: 3 forecast tools x 2 converters = 6 valid, one the original; q2: its original only
    assert (done.valid, done.alternatives, done.with_alternative) == (7, 5, 1)
    stats = annotation_rows(store, "b")[0]
    assert (stats.valid_combos, stats.alternatives) == (done.valid, done.alternatives)
    assert combination_counts(store, "b")["valid"] == done.valid
    info = store.rows("store/22_info_expansions.sql")[0]
    assert (info["valid"], info["alternatives"], info["queries_with_alternative"]) == (7, 5, 1)
    detail = annotation_detail_table(ReportContext.create(store, expansion="default"))
    everything = next(r for r in detail.rows if r["category"] == "all")
    assert everything["alternatives"] == done.alternatives
    assert done.row()["valid_combinations"] == 7 and done.row()["alternatives"] == 5
    # the assembly's row names what it counted before the audit: the originals, not "valid"
    assemble = next(s for s in report.stages if s.stage == "assemble")
    assert "valid" not in assemble.notes and assemble.notes["originals"] == 2
