from __future__ import annotations

from pathlib import Path

from toolex.loaders import load_plain
from toolex.store import Store


def test_plain_skill_benchmark(store: Store, data_dir: Path) -> None:
    d = data_dir / "plain"
    result = load_plain(
        store,
        d / "items.jsonl",
        d / "queries.jsonl",
        d / "qrels.jsonl",
        name="skills",
        kind="skill",
    )
    assert (result.items, result.queries, result.qrels) == (3, 2, 3)
    items = store.con.execute(
        "SELECT item_id, kind, name, platform, task, category, text FROM items ORDER BY 1"
    ).fetchall()
    assert items == [
        (
            "img-resize",
            "skill",
            None,
            None,
            "images",
            None,
            "description: Resize an image to a given width and height.",
        ),
        (
            "pdf-merge",
            "skill",
            "pdf-merge",
            None,
            None,
            "documents",
            "name: pdf-merge\ndescription: Merge several PDF files into one document.",
        ),
        (
            "pdf-split",
            "skill",
            "pdf-split",
            "pdftk",
            None,
            "documents",
            "name: pdf-split\nplatform: pdftk\ndescription: Split a PDF into pages.\n"
            "parameters: path (string, required)",
        ),
    ]
    qrels = store.con.execute(
        "SELECT query_id, item_id, relevance, slot FROM qrels ORDER BY 1, 4"
    ).fetchall()
    assert qrels == [
        ("s1", "pdf-merge", 1, 0),
        ("s1", "pdf-split", 1, 1),
        ("s2", "img-resize", 2, 0),
    ]
    q = store.con.execute(
        "SELECT instruction, category FROM queries WHERE query_id = 's1'"
    ).fetchall()[0]
    assert q == ("Find skills for the request.", "documents")


def test_plain_parquet(store: Store, data_dir: Path, tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from toolex.loaders.readers import read_jsonl

    paths = []
    for name in ("items", "queries", "qrels"):
        rows = [r for r, _ in read_jsonl(data_dir / "plain" / f"{name}.jsonl")]
        if name == "items":  # Parquet has no free-form objects: doc travels as a JSON string
            import json

            rows = [r | {"doc": json.dumps(r["doc"])} if "doc" in r else r for r in rows]
        keys = {k for r in rows for k in r}
        rows = [{k: r.get(k) for k in sorted(keys)} for r in rows]
        pq.write_table(pa.Table.from_pylist(rows), tmp_path / f"{name}.parquet")
        paths.append(tmp_path / f"{name}.parquet")
    result = load_plain(store, *paths, name="skills")
    assert (result.items, result.queries, result.qrels) == (3, 2, 3)
    assert (
        store.con.execute("SELECT count(*) FROM items WHERE kind = 'skill'").fetchall()[0][0] == 1
    )


def test_a_top_level_object_is_named_as_such_by_the_command(tmp_path: Path) -> None:
    """`toolex load plain` on a .json items file holding one object (issue 25, point 11)."""
    from pathlib import Path

    from click.testing import CliRunner

    from toolex.cli import cli

    items = tmp_path / "items.json"
    items.write_text('{\n  "items": [{"id": "pdf-merge", "text": "Merge PDFs"}]\n}\n')
    src = Path(__file__).resolve().parents[1] / "data" / "plain"
    res = CliRunner().invoke(
        cli,
        [
            "load", "plain", "--db", str(tmp_path / "s.duckdb"), "--name", "p",
            "--items", str(items),
            "--queries", str(src / "queries.jsonl"), "--qrels", str(src / "qrels.jsonl"),
        ],
    )  # fmt: skip
    assert res.exit_code != 0
    assert f"{items}: the file holds one top-level JSON object" in str(res.exception) + res.output
