"""Issue 35.8: call chains written as placeholders inside parameter values (Seal-Tools'
``"document_id": "API_call_0"``) could not be expressed with `load plain --map`, so such a
library loaded with none of its edges; `--map 'items=$'` on a file holding one object said
"item id , field 'id': missing"; and a file holding one object was told to write its list out,
though `--map items=KEY` reads it where it is.

tests/data/mapped/sealtools/ is written for these tests in Seal-Tools' shape (tool.jsonl:
api_name, api_description, field, parameters, required, responses; a query: id, query and its
calling steps {api, parameters, responses}): 5 edges in 3 of its 4 queries, one placeholder
(API_call_1) a prefix of another (API_call_10), one inside a list, one inside a nested object and
one with a suffix (API_call_1.artwork_id)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from toolex.cli import cli
from toolex.errors import InputError
from toolex.store import Store

SEAL = Path(__file__).resolve().parents[1] / "data" / "mapped" / "sealtools"
MAPS = [
    "--map", "items.id=api_name", "--map", "items.doc=$", "--map", "items.category=field",
    "--map", "queries.text=query", "--map", "queries.labels=calling",
    "--map", "queries.labels.id=api",
]  # fmt: skip
CHAINS = [
    "--map", "queries.labels.outputs=responses", "--map", "queries.labels.arguments=parameters",
]  # fmt: skip


def _load(tmp_path: Path, *args: str, items: Path = SEAL / "tool.jsonl",
          queries: Path = SEAL / "queries.jsonl") -> Result:  # fmt: skip
    return CliRunner().invoke(cli, [
        "load", "plain", "--db", str(tmp_path / "s.duckdb"), "--name", "seal",
        "--items", str(items), "--queries", str(queries), *args,
    ])  # fmt: skip


def _edges(tmp_path: Path) -> list[tuple[Any, ...]]:
    with Store.open(tmp_path / "s.duckdb", read_only=True) as store:
        return store.con.execute(
            "SELECT query_id, producer_slot, consumer_slot, value FROM dependency_edges "
            "ORDER BY ALL"
        ).fetchall()


def test_seal_tools_placeholders_load_as_call_chains(tmp_path: Path) -> None:
    res = _load(tmp_path, *MAPS, *CHAINS)
    assert res.exit_code == 0, res.output
    assert "dependency edges: 5 loaded, in 3 queries" in res.stderr
    assert _edges(tmp_path) == [
        ("difficult-1", 0, 1, "document_id"),
        ("difficult-2", 0, 1, "artwork_id"),
        ("difficult-2", 0, 2, "artwork_ids"),  # "API_call_1.artwork_id" in a list
        ("difficult-2", 1, 2, "filters.condition"),  # API_call_10, not API_call_1
        ("difficult-3", 0, 1, "text"),
    ]


def test_without_the_placeholder_fields_the_steps_load_with_no_chain(tmp_path: Path) -> None:
    res = _load(tmp_path, *MAPS)
    assert res.exit_code == 0, res.output
    assert _edges(tmp_path) == []


def test_the_plain_schema_reads_outputs_and_arguments_under_their_own_names(tmp_path: Path) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({"id": "q", "text": "find and read", "labels": [
        {"id": "searchLibraryCatalog", "outputs": "$res_a"},
        {"id": "getLibraryDocument", "arguments": {"document_id": "$res_a$"}},
    ]}) + "\n")  # fmt: skip
    res = _load(tmp_path, "--map", "items.id=api_name", "--map", "items.doc=$", queries=queries)
    assert res.exit_code == 0, res.output
    assert _edges(tmp_path) == [("q", 0, 1, "document_id")]


@pytest.mark.parametrize(
    ("calling", "message", "field"),
    [
        ([{"api": "searchArtwork", "parameters": {}, "responses": ["API_call_0"]},
          {"api": "getArtworkCondition", "parameters": {}, "responses": ["API_call_0"]}],
         "placeholder 'API_call_0' is the output of steps 0 and 1", "responses"),
        ([{"api": "searchArtwork", "parameters": {"artist": "API_call_0"},
           "responses": ["API_call_0"]}],
         "step 0 passes its own output 'API_call_0' to itself", "parameters"),
        ([{"api": "searchArtwork", "parameters": {}, "responses": [7]}],
         "a step's outputs are placeholder names (strings), found 7", "responses"),
    ],
)  # fmt: skip
def test_a_broken_placeholder_is_located(
    tmp_path: Path, calling: list[dict[str, object]], message: str, field: str
) -> None:
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({"id": "q", "query": "x", "calling": calling}) + "\n")
    res = _load(tmp_path, *MAPS, *CHAINS, queries=queries)
    assert isinstance(res.exception, InputError), res.output
    said = str(res.exception)
    assert said.startswith(f"{queries}:1, query id q, field {field!r}: {message}"), said
    assert not (tmp_path / "s.duckdb").exists() or _edges(tmp_path) == []


@pytest.mark.parametrize("pretty", [True, False])
def test_a_file_holding_one_object_is_told_to_map_the_key_that_holds_the_list(
    tmp_path: Path, pretty: bool
) -> None:
    items = tmp_path / "items.json"
    records = [json.loads(line) for line in (SEAL / "tool.jsonl").read_text().splitlines()]
    items.write_text(json.dumps({"tools": records}, indent=2 if pretty else None))
    for extra, said in [
        ([], f"{items}: the file holds one top-level JSON object, not a list of records: read "
             "the list under its key with --map items=tools, or give the records as a JSON array "
             "or JSON Lines"),
        (["--map", "items=$"], f"{items}, field '$': --map items=$ names the file's whole "
             "top-level object: one value, not a list of items: read the list under its key "
             "with --map items=tools"),
    ]:  # fmt: skip
        res = _load(tmp_path, *MAPS, *extra, items=items)
        assert isinstance(res.exception, InputError), res.output
        assert str(res.exception) == said
        assert "write out that list" not in str(res.exception)
    res = _load(tmp_path, *MAPS, "--map", "items=tools", items=items)
    assert res.exit_code == 0, res.output
