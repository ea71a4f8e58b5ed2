"""CSV review sheets (export what a role may see, import with checks) and the `toolex review`
commands, end to end on the StableToolBench fixture store."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from tui.fixtures import build_store

from toolex.cli import cli
from toolex.errors import InputError
from toolex.review.sheets import export_sheet, import_sheet
from toolex.store import Store


@pytest.fixture(scope="module")
def base_db(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "stb.duckdb"
    build_store(path, shared_data).close()
    return path


@pytest.fixture
def db(base_db: Path, tmp_path: Path) -> str:
    dst = tmp_path / "stb.duckdb"
    shutil.copyfile(base_db, dst)
    return str(dst)


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout  # messages go to stderr


def draw_audit(db: str, *extra: str) -> str:
    """`toolex review sample audit`: 3 combinations of the fixture store, seed 7."""
    return run(
        "review",
        "sample",
        "audit",
        "--db",
        db,
        "--benchmark",
        "stabletoolbench",
        "--size",
        "3",
        "--seed",
        "7",
        *extra,
    )


def fill(
    path: Path, role: str, reviewer: str, labels: dict[str, tuple[str, str, str]]
) -> list[dict[str, str]]:
    """Fill a sheet: labels maps query_id -> (label, bucket, note)."""
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        label, bucket, note = labels[row["query_id"]]
        row.update(reviewer=reviewer, label=label, bucket=bucket, note=note)
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def test_round_through_sheets_and_cli(db: str, tmp_path: Path) -> None:
    out = draw_audit(db, "--format", "json")
    assert {r["stratum"]: r["items"] for r in json.loads(out)} == {
        "G1 x 2": 1,
        "G2 x 2": 1,
        "G3 x 3": 1,
    }
    r1, r2, adj = (tmp_path / f"{n}.csv" for n in ("r1", "r2", "adj"))
    run("review", "export", "audit", "--db", db, "--role", "reviewer1", "--out", str(r1))
    rows = fill(
        r1,
        "reviewer1",
        "ann",
        {
            "G1_instruction:1073": ("valid", "", ""),
            "G2_instruction:1643": ("valid", "", ""),
            "G3_instruction:455": ("invalid", "near_synonym", "related people is not a search"),
        },
    )
    assert "r2_label" not in rows[0]  # blind: no other's label
    # blind to the judge and the ranking: no reasons, verdicts, RRF rank
    assert not {"judge_reasons", "audit_reason", "rrf_rank"} & set(rows[0])
    # the checklist and both combinations' documentations, side by side
    first = next(r for r in rows if r["query_id"] == "G3_instruction:455")
    assert first["checklist"].startswith("slot 0: Use an API to")
    assert '"api_name": "GetRelatedPeople"' in first["candidate_docs"]
    assert first["reference_docs"].startswith("slot 0 · ")
    run("review", "import", str(r1), "--db", db)
    run("review", "export", "audit", "--db", db, "--role", "reviewer2", "--out", str(r2))
    with open(r2, newline="") as fh:
        assert all(row["label"] == "" for row in csv.DictReader(fh))  # ann's labels hidden
    fill(
        r2,
        "reviewer2",
        "bob",
        {
            "G1_instruction:1073": ("valid", "", ""),
            "G2_instruction:1643": ("invalid", "incomplete_coverage", "length is not covered"),
            "G3_instruction:455": ("invalid", "near_synonym", ""),
        },
    )
    run("review", "import", str(r2), "--db", db)
    run("review", "export", "audit", "--db", db, "--role", "adjudicator", "--out", str(adj))
    rows = fill(
        adj,
        "adjudicator",
        "cat",
        {"G2_instruction:1643": ("invalid", "incomplete_coverage", "agree with bob")},
    )
    assert [(r["query_id"], r["r1_label"], r["r2_note"]) for r in rows] == [
        ("G2_instruction:1643", "valid", "length is not covered")
    ]
    run("review", "import", str(adj), "--db", db)
    stats = {
        r["statistic"]: r["value"]
        for r in json.loads(run("review", "stats", "audit", "--db", db, "--format", "json"))
    }
    # final: 1073 valid, 1643 invalid (adjudicated), 455 invalid -> precision 1/3
    # kappa: pairs (v,v) (v,i) (i,i); p_o = 2/3, p_e = 2/3*1/3 + 1/3*2/3 = 4/9 -> 0.4
    assert stats["precision"] == pytest.approx(1 / 3)
    assert stats["kappa"] == pytest.approx(0.4)
    assert stats["bucket:near_synonym"] == 1 and stats["bucket:incomplete_coverage"] == 1


def test_import_names_the_bad_line_and_writes_nothing(db: str, tmp_path: Path) -> None:
    draw_audit(db)
    sheet = tmp_path / "r1.csv"
    with Store.open(db) as store:
        export_sheet(store, "audit", "reviewer1", sheet)
    rows = fill(
        sheet,
        "reviewer1",
        "ann",
        {
            "G1_instruction:1073": ("valid", "", ""),
            "G2_instruction:1643": ("invalid", "", ""),  # no bucket
            "G3_instruction:455": ("valid", "", ""),
        },
    )
    bad_line = 2 + [r["query_id"] for r in rows].index("G2_instruction:1643")  # header = line 1
    with Store.open(db) as store:
        with pytest.raises(InputError) as err:
            import_sheet(store, sheet)
        assert err.value.line == bad_line and err.value.field == "bucket"
        assert store.con.execute("SELECT count(*) FROM review_labels").fetchall()[0][0] == 0


def test_label_at_the_prompt(db: str) -> None:
    draw_audit(db)
    # first item valid, second invalid/near-synonym with a note, then quit
    result = CliRunner().invoke(
        cli,
        ["review", "label", "audit", "--db", db, "--role", "reviewer1", "--reviewer", "ann"],
        input="v\n\ni\n2\nsame words, other job\nq\n",
    )
    assert result.exit_code == 0, result.output
    with Store.open(db, read_only=True) as store:
        rows = store.con.execute(
            "SELECT l.label, l.bucket, l.note FROM review_labels l JOIN review_samples s "
            "USING (sample_id, benchmark, expansion, query_id, combo_id) ORDER BY s.position"
        ).fetchall()
    assert rows == [("valid", None, None), ("invalid", "near_synonym", "same words, other job")]


def test_import_refuses_an_item_outside_the_sample(db: str, tmp_path: Path) -> None:
    draw_audit(db)
    sheet = tmp_path / "r1.csv"
    with Store.open(db) as store:
        export_sheet(store, "audit", "reviewer1", sheet)
    rows = fill(
        sheet,
        "reviewer1",
        "ann",
        {
            q: ("valid", "", "")
            for q in ("G1_instruction:1073", "G2_instruction:1643", "G3_instruction:455")
        },
    )
    rows[0]["combo_id"] = "99"
    with open(sheet, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with Store.open(db) as store, pytest.raises(InputError, match="is not in sample"):
        import_sheet(store, sheet)
