"""The verdict level from the shell, on the StableToolBench fixture store: `review sample --level
verdict` (reproducible, stratified), sheets that show the sub-query and both documentations and
nothing of the judge, a full round through sheets, the prompt, and the statistics."""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tui.fixtures import build_store

from toolex.cli import cli
from toolex.errors import InputError
from toolex.review.sheets import export_sheet, import_sheet
from toolex.store import Store

# what a verdict sheet must never show: the judge's verdict, reason, confidence, the ranks
HIDDEN = {"part", "stratum", "rank", "rank_band", "confidence", "reason", "accepted", "judge"}


@pytest.fixture(scope="module")
def base_db(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("vreview") / "stb.duckdb"
    build_store(path, shared_data).close()
    return path


@pytest.fixture
def db(base_db: Path, tmp_path: Path) -> str:
    dst = tmp_path / "stb.duckdb"
    shutil.copyfile(base_db, dst)
    return str(dst)


def run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.stdout


def draw(db: str, name: str, *extra: str, size: str = "9", seed: str = "7") -> str:
    """A verdict sample of the fixture store; bm25 searches past the candidates (the fixture's
    own candidate retriever is not a retriever spec)."""
    return run(
        "review", "sample", name, "--db", db, "--level", "verdict", "--benchmark",
        "stabletoolbench", "--retriever", "bm25", "--size", size, "--seed", seed, *extra,
    )  # fmt: skip


def drawn(db: str, name: str) -> list[tuple[Any, ...]]:
    with Store.open(db, read_only=True) as store:
        return store.con.execute(
            "SELECT query_id, slot, item_id, part, stratum, position FROM review_verdict_samples "
            "WHERE sample_id = ? ORDER BY position",
            [name],
        ).fetchall()


def test_sample_level_verdict_is_reproducible_and_stratified(db: str) -> None:
    a = json.loads(draw(db, "va", "--format", "json"))
    b = json.loads(draw(db, "vb", "--format", "json"))
    assert a == b  # same store, size and seed: same strata, same draw
    assert [r[:5] for r in drawn(db, "va")] == [r[:5] for r in drawn(db, "vb")]
    by_part: dict[str, int] = {}
    for row in a:
        assert row["stratum"] == f"{row['part']}/{row['category']}/{row['rank_band']}"
        by_part[row["part"]] = by_part.get(row["part"], 0) + row["drawn"]
        assert row["drawn"] <= row["population"]
    # 9 split evenly over the three parts; the fixture accepts 4 equivalents, all at rank 2
    assert by_part == {"accepted": 3, "rejected": 3, "unjudged": 3}
    assert {r["population"] for r in a if r["part"] == "accepted"} <= {1, 2}
    assert sum(r["population"] for r in a if r["part"] == "accepted") == 4
    assert {r["rank_band"] for r in a if r["part"] == "accepted"} == {"1-3"}
    # the unjudged part holds what bm25 ranks past the stored candidates
    assert any(r["rank_band"] == "21+" for r in a if r["part"] == "unjudged")
    draw(db, "vc", seed="8")
    assert sorted(r[:3] for r in drawn(db, "vc")) != sorted(r[:3] for r in drawn(db, "va"))
    # the combination level is unchanged, and refuses the verdict-only order
    run("review", "sample", "c", "--db", db, "--benchmark", "stabletoolbench", "--size", "3",
        "--seed", "7", "--order", "uncertainty", code=2)  # fmt: skip


def fill(
    path: Path, role: str, reviewer: str, plan: Mapping[tuple[str, int, str], tuple[str, str, str]]
) -> list[dict[str, str]]:
    """plan: (query_id, slot, item_id) -> (label, bucket, note)."""
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        label, bucket, note = plan[(row["query_id"], int(row["slot"]), row["item_id"])]
        row.update(reviewer=reviewer, label=label, bucket=bucket, note=note)
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def plans(
    items: list[tuple[tuple[Any, Any, Any], Any]],
) -> tuple[dict[Any, tuple[str, str, str]], dict[Any, Any], dict[Any, tuple[str, str, str]]]:
    """Reviewer 1: yes to the judge's accepted verdicts, no to the rest; reviewer 2 the same but
    for the first accepted (no) and the first unjudged (yes); the adjudicator says yes to both."""
    first = {p: next(k for k, q in items if q == p) for p in ("accepted", "unjudged")}
    r1 = {
        k: ("yes", "", "") if p == "accepted" else ("no", "different_operation", "")
        for k, p in items
    }
    r2 = dict(r1)
    r2[first["accepted"]] = ("no", "different_entity", "C# is not C")
    r2[first["unjudged"]] = ("yes", "", "same job")
    adj = {first["accepted"]: ("yes", "", "same entity"), first["unjudged"]: ("yes", "", "")}
    return r1, r2, adj


def test_verdict_round_through_sheets(db: str, tmp_path: Path) -> None:
    draw(db, "v")
    items = [((q, s, i), p) for q, s, i, p, _, _ in drawn(db, "v")]
    r1plan, r2plan, adjplan = plans(items)
    r1, r2, adj = (tmp_path / f"{n}.csv" for n in ("r1", "r2", "adj"))
    run("review", "export", "v", "--db", db, "--role", "reviewer1", "--out", str(r1))
    rows = fill(r1, "reviewer1", "ann", r1plan)
    assert list(rows[0])[:13] == [
        "sample_id", "benchmark", "expansion", "query_id", "slot", "item_id", "position",
        "query", "instruction", "subquery", "reference", "reference_doc", "candidate_doc",
    ]  # fmt: skip
    assert not HIDDEN & set(rows[0]) and "r2_label" not in rows[0]
    for row in rows:  # both full documentations, pretty-printed, side by side
        assert row["subquery"].startswith("Use an API to")
        assert row["reference_doc"].startswith(row["reference"] + "\n{\n  ")
        assert row["candidate_doc"].startswith(row["item_id"] + "\n{\n  ")
        assert '"api_name": "' in row["candidate_doc"]
    run("review", "import", str(r1), "--db", db)
    run("review", "export", "v", "--db", db, "--role", "reviewer2", "--out", str(r2))
    with open(r2, newline="") as fh:
        assert all(row["label"] == "" for row in csv.DictReader(fh))  # ann's labels hidden
    fill(r2, "reviewer2", "bob", r2plan)
    run("review", "import", str(r2), "--db", db)
    run("review", "export", "v", "--db", db, "--role", "adjudicator", "--out", str(adj))
    rows = fill(adj, "adjudicator", "cat", adjplan)
    assert len(rows) == 2 and not HIDDEN & set(rows[0])
    assert {(r["r1_label"], r["r2_label"], r["r2_note"]) for r in rows} == {
        ("yes", "no", "C# is not C"),
        ("no", "yes", "same job"),
    }
    run("review", "import", str(adj), "--db", db)
    stats = {
        r["statistic"]: r["value"]
        for r in json.loads(run("review", "stats", "v", "--db", db, "--format", "json"))
    }
    # final: accepted 3/3 yes; rejected 0/3; unjudged 1/3
    assert stats["precision"] == pytest.approx(1.0)
    assert (stats["precision_low"], stats["precision_high"]) == pytest.approx(
        (0.43850, 1.0), abs=1e-5
    )  # Wilson 3/3: 3 / (3 + 1.96^2)
    assert stats["judge_recall"] == pytest.approx(1.0)  # no equivalent among the rejected
    assert 0 < stats["recall"] < 1
    # kappa over 9 pairs, 7 agree; each says yes 3 times: p_o = 7/9, p_e = 1/9 + 4/9 -> 0.5
    assert stats["kappa"] == pytest.approx(0.5)
    assert stats["bucket:different_operation"] == 5
    with Store.open(db, read_only=True) as store:
        labels = store.con.execute(
            "SELECT labeller, count(*) FROM labels WHERE source = 'v' GROUP BY ALL ORDER BY 1"
        ).fetchall()
    assert labels == [("agreed", 7), ("cat", 2)]


def test_verdict_import_names_the_bad_row_and_writes_nothing(db: str, tmp_path: Path) -> None:
    draw(db, "v", size="3")
    sheet = tmp_path / "r1.csv"
    with Store.open(db) as store:
        export_sheet(store, "v", "reviewer1", sheet)
    with open(sheet, newline="") as fh:
        keys = [(r["query_id"], int(r["slot"]), r["item_id"]) for r in csv.DictReader(fh)]
    plan = {k: ("yes", "", "") for k in keys}
    plan[keys[1]] = ("no", "near_synonym", "")  # a combination bucket on a verdict
    fill(sheet, "reviewer1", "ann", plan)
    with Store.open(db) as store:
        with pytest.raises(InputError) as err:
            import_sheet(store, sheet)
        # the row as a spreadsheet numbers it (header = 1), though cells span lines
        assert (err.value.line, err.value.field) == (3, "bucket")
        assert "different_operation" in str(err.value)
        assert store.con.execute("SELECT count(*) FROM review_verdict_labels").fetchall()[0] == (0,)


def test_verdict_label_at_the_prompt(db: str) -> None:
    draw(db, "v", size="3")
    result = CliRunner().invoke(
        cli,
        ["review", "label", "v", "--db", db, "--role", "reviewer1", "--reviewer", "ann"],
        input="y\n\nn\n2\nanother object\nq\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "--- reference ---" in out and "--- candidate ---" in out and '"api_name"' in out
    assert "Use an API to" in out  # the sub-query
    assert "reason" not in out and "confidence" not in out
    with Store.open(db, read_only=True) as store:
        rows = store.con.execute(
            "SELECT l.label, l.bucket, l.note FROM review_verdict_labels l "
            "JOIN review_verdict_samples s USING (sample_id, benchmark, expansion, query_id, "
            "slot, item_id) ORDER BY s.position"
        ).fetchall()
    assert rows == [("yes", None, None), ("no", "different_entity", "another object")]
