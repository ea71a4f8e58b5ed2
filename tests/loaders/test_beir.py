from __future__ import annotations

from pathlib import Path

import pytest

from toolex.errors import InputError
from toolex.loaders import load_beir
from toolex.store import Store


def test_beir_fixture(store: Store, data_dir: Path) -> None:
    result = load_beir(store, data_dir / "beir", name="mini")
    # q3 is unjudged, and the score-0 judgment (q1, t3) is not ground truth
    assert (result.items, result.queries, result.qrels) == (3, 2, 3)
    assert store.con.execute(
        "SELECT query_id, item_id, relevance, slot FROM qrels ORDER BY 1, 4"
    ).fetchall() == [
        ("q1", "t2", 2, 0),
        ("q1", "t1", 1, 1),
        ("q2", "t3", 1, 0),
    ]
    text = store.con.execute("SELECT text FROM items WHERE item_id = 't1'").fetchall()[0][0]
    assert text == (
        "name: weather_now\nplatform: OpenMeteo\ndescription: Current weather for a city."
    )
    assert store.con.execute("SELECT name, platform FROM items WHERE item_id = 't1'").fetchall()[
        0
    ] == ("weather_now", "OpenMeteo")


def test_beir_other_split_missing(store: Store, data_dir: Path) -> None:
    with pytest.raises(InputError, match="missing qrels/dev.tsv"):
        load_beir(store, data_dir / "beir", split="dev")
