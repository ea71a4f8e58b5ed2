"""search(): scope filtering, ranking rule, output shape, for dense, BM25 and hybrid."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from retrieval.conftest import HashEmbedder
from toolex.errors import InputError
from toolex.retrieval import search
from toolex.retrieval.dense import DenseRetriever
from toolex.store import Store

TEXTS = [("qa", 0, "weather in Paris"), ("qb", 0, "translate"), ("qb", 1, "weather forecast")]


def _items_of(table: pa.Table, qid: str, slot: int = 0) -> list[str]:
    return [r["item_id"] for r in table.to_pylist() if r["query_id"] == qid and r["slot"] == slot]


@pytest.mark.parametrize("kind", ["bm25", "dense"])
def test_task_scope_searches_only_the_query_task(
    lib_store: Store, hash_embedder: HashEmbedder, kind: str
) -> None:
    r = "bm25" if kind == "bm25" else DenseRetriever("hash", hash_embedder)
    out = search(lib_store, "b", r, TEXTS, depth=10, scope="task")
    assert out.column_names == ["query_id", "slot", "item_id", "score", "rank"]
    assert set(_items_of(out, "qa")) == {"w1", "w2", "w3"}
    assert set(_items_of(out, "qb", 0)) == {"c1", "c2"}
    assert set(_items_of(out, "qb", 1)) == {"c1", "c2"}
    assert _items_of(out, "qa")[0] == "w1"
    assert _items_of(out, "qb", 0)[0] == "c2"
    assert _items_of(out, "qb", 1)[0] == "c1"


@pytest.mark.parametrize("kind", ["bm25", "dense"])
def test_category_and_benchmark_scopes(
    lib_store: Store, hash_embedder: HashEmbedder, kind: str
) -> None:
    r = "bm25" if kind == "bm25" else DenseRetriever("hash", hash_embedder)
    cat = search(lib_store, "b", r, TEXTS, depth=10, scope="category")
    assert set(_items_of(cat, "qb", 1)) == {"c1", "c2", "c3"}
    assert set(_items_of(cat, "qa")) == {"w1", "w2", "w3"}
    allb = search(lib_store, "b", r, TEXTS, depth=10, scope="benchmark")
    assert set(_items_of(allb, "qa")) == {"w1", "w2", "w3", "c1", "c2", "c3"}


def test_k_cuts_and_ranks_are_one_based_with_ties_by_item_id_desc(lib_store: Store) -> None:
    # "zzz" matches nothing: every BM25 score is 0, so the order is item_id DESC
    out = search(lib_store, "b", "bm25", [("qa", 0, "zzz")], depth=2, scope="benchmark")
    assert [(r["item_id"], r["rank"], r["score"]) for r in out.to_pylist()] == [
        ("w3", 1, 0.0),
        ("w2", 2, 0.0),
    ]


def test_hybrid_fuses_bm25_and_dense(lib_store: Store, hash_embedder: HashEmbedder) -> None:
    from toolex.retrieval.bm25 import BM25Retriever
    from toolex.retrieval.hybrid import HybridRetriever

    hy = HybridRetriever(
        "hybrid:bm25+hash", [BM25Retriever(), DenseRetriever("hash", hash_embedder)]
    )
    out = search(lib_store, "b", hy, [("qa", 0, "weather in Paris")], depth=3, scope="task")
    rows = out.to_pylist()
    assert rows[0]["item_id"] == "w1"  # first in both lists: 2 / 61
    assert rows[0]["score"] == pytest.approx(2 / 61)
    assert [r["rank"] for r in rows] == [1, 2, 3]


def test_errors_name_what_is_wrong(lib_store: Store) -> None:
    with pytest.raises(InputError, match="unknown scope"):
        search(lib_store, "b", "bm25", TEXTS, scope="planet")
    with pytest.raises(InputError, match="has no items"):
        search(lib_store, "nope", "bm25", TEXTS)
    with pytest.raises(InputError, match="query 'zz'"):
        search(lib_store, "b", "bm25", [("zz", 0, "x")], scope="task")
    with pytest.raises(InputError, match="hybrid spec"):
        search(lib_store, "b", "hybrid:bm25", TEXTS)
    lib_store.con.execute("UPDATE items SET task = NULL")
    with pytest.raises(InputError, match="use --scope benchmark"):
        search(lib_store, "b", "bm25", TEXTS, scope="task")


def test_alternative_rendering_searches_item_docs(
    lib_store: Store, hash_embedder: HashEmbedder
) -> None:
    lib_store.con.execute(
        "INSERT INTO item_docs VALUES ('b', 'w2', 'llm', '{}', 'weather report by email'),"
        "('b', 'w3', 'llm', '{}', 'stock prices')"
    )
    r = DenseRetriever("hash", hash_embedder)
    text = [("qa", 0, "weather report")]
    out = search(lib_store, "b", r, text, depth=5, scope="task", rendering="llm")
    # w2 is found by its rendering; w1 ("current weather"), which the rendering does not
    # document, is still searched, in its default text (issue 26.2)
    assert _items_of(out, "qa") == ["w2", "w1", "w3"]
    bm = search(lib_store, "b", "bm25", text, depth=5, scope="task", rendering="llm")
    assert _items_of(bm, "qa")[:2] == ["w2", "w1"]
    with pytest.raises(InputError, match="rendering 'none'"):
        search(lib_store, "b", "bm25", [("qa", 0, "x")], rendering="none")


def test_hybrid_build_reports_every_part(lib_store: Store, hash_embedder: HashEmbedder) -> None:
    from toolex.retrieval.bm25 import BM25Retriever
    from toolex.retrieval.hybrid import HybridRetriever
    from toolex.retrieval.texts import load_library

    hy = HybridRetriever(
        "hybrid:bm25+hash", [BM25Retriever(), DenseRetriever("hash", hash_embedder)]
    )
    bm25, dense = hy.build(lib_store, load_library(lib_store, "b"))
    assert (dense.spec, dense.rows, dense.stats.embedded, dense.index) == ("hash", 6, 6, "flat")
    assert (bm25.spec, bm25.table, bm25.index) == ("bm25", None, "none (built per search)")


def test_an_unknown_retriever_lists_every_spec_form() -> None:
    """Issue 25, point 12: `retrieve --retriever bm-25` listed neither bm25 nor hybrid:."""
    from click.testing import CliRunner

    from toolex.cli import cli
    from toolex.errors import InputError
    from toolex.retrieval import make_retriever

    for spec, close in (("bm-25", "bm25"), ("wordlama", "wordllama"), ("e5", None)):
        with pytest.raises(InputError) as exc:
            make_retriever(spec)
        message = str(exc.value)
        for form in (
            "bm25",
            "wordllama",
            "fastembed:<model>",
            "fastembed:<model>@",
            "hybrid:<a>+<b>",
        ):
            assert form in message, (spec, form)
        assert (f"did you mean {close!r}" in message) == (close is not None)
    with pytest.raises(InputError, match="unknown retriever 'bm-25'"):
        make_retriever("hybrid:bm-25+wordllama")  # a part of a hybrid too
    for command in (["retrieve", "--run", "r"], ["index"]):  # refused before any store is read
        res = CliRunner().invoke(cli, [*command, "--retriever", "bm-25", "--db", "no.duckdb"])
        assert res.exit_code == 2 and "Invalid value for '--retriever'" in res.output
        assert "did you mean 'bm25'?" in res.output and "hybrid:<a>+<b>" in res.output


def test_the_spec_check_knows_the_endpoint_forms(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`retrieve` and `index` check --retriever before the store opens (check_spec): the
    endpoint forms pass without a key being read, a malformed one says what a valid one looks
    like, a misspelt prefix is pointed at its name, and a URL's credentials are never echoed."""
    from click.testing import CliRunner

    from toolex.cli import cli
    from toolex.errors import InputError
    from toolex.retrieval.search import check_spec

    for name in ("OPENAI_API_KEY", "TOOLEX_COMPAT_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    for spec in (
        "openai-embed:text-embedding-3-small",
        " compat-embed:http://127.0.0.1:9/v1#Qwen/Qwen3-Embedding-4B",
        "hybrid:bm25+compat-embed:http://127.0.0.1:9/v1#m",
    ):
        assert check_spec(spec) == spec.strip()
    with pytest.raises(InputError, match="openai-embed needs a model"):
        check_spec("openai-embed:")
    with pytest.raises(InputError, match="is compat-embed:<base_url>#<model>, e.g."):
        check_spec("hybrid:bm25+compat-embed:http://127.0.0.1:9/v1")
    with pytest.raises(InputError) as exc:
        check_spec("compat-embd:http://ann:hunter2@gpu/v1#m")
    message = str(exc.value)
    assert "did you mean 'compat-embed'?" in message and "hunter2" not in message
    assert "openai-embed:<model>" in message and "compat-embed:<base_url>#<model>" in message
    res = CliRunner().invoke(
        cli,
        [
            "index",
            "--retriever",
            "compat-embed:http://127.0.0.1:9/v1#m",
            "--db",
            str(tmp_path / "s"),
        ],
    )
    # past the check, stopped by the store: it holds no benchmark
    assert res.exit_code != 0 and "Invalid value" not in res.output
    assert "no benchmark named 'toolret'" in f"{res.output}{res.exception}"
