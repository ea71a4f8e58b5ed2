"""Embedder specs, the offline failure of an unavailable fastembed model, and the real models."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from toolex.errors import InputError, ModelUnavailableError
from toolex.retrieval.embedders import WordLlamaEmbedder, make_embedder
from toolex.store import Store


def test_unknown_specs_are_input_errors() -> None:
    with pytest.raises(InputError, match="unknown embedder"):
        make_embedder("word2vec")
    with pytest.raises(InputError, match="fastembed has no model"):
        make_embedder("fastembed:no-such/model")


def test_fastembed_without_network_fails_fast_naming_offline_options(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # an empty cache and HF offline: the model cannot be had; the error must say what to do
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("FASTEMBED_CACHE_PATH", str(tmp_path))
    made: list[object] = []  # every connection tried: "fast" is counted, not timed (issue 25)
    real = socket.socket.connect

    def counted(s: socket.socket, a: Any) -> None:  # socket's own address type
        made.append(a)
        return real(s, a)

    monkeypatch.setattr(socket.socket, "connect", counted)
    with pytest.raises(ModelUnavailableError) as err:
        make_embedder("fastembed:BAAI/bge-small-en-v1.5")
    assert made == []  # offline: no download tried, so no hang and no retry loop
    msg = str(err.value)
    assert "BAAI/bge-small-en-v1.5" in msg and "fastembed:<model-name>@<folder>" in msg
    assert "wordllama" in msg


def test_fastembed_unreachable_hub_fails_fast(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # not flagged offline, but the hub does not answer: the TCP probe decides in seconds
    import toolex.retrieval.embedders as emb

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("FASTEMBED_CACHE_PATH", str(tmp_path))
    monkeypatch.setattr(emb, "HUB_HOST", ("127.0.0.1", 9))  # discard port: refused at once
    with pytest.raises(ModelUnavailableError, match="cannot be reached"):
        make_embedder("fastembed:BAAI/bge-small-en-v1.5")


def test_local_folder_without_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailableError, match="no model.onnx"):
        make_embedder(f"fastembed:sentence-transformers/all-MiniLM-L6-v2@{tmp_path}")


def test_cli_prints_the_error_without_traceback(lib_store: Store, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    lib_store.close()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "FASTEMBED_CACHE_PATH": str(tmp_path / "fe")}
    toolex = Path(sys.executable).with_name("toolex")
    proc = subprocess.run(
        [
            str(toolex),
            "retrieve",
            "--db",
            lib_store.path,
            "--benchmark",
            "b",
            "--retriever",
            "fastembed:BAAI/bge-small-en-v1.5",
            "--run",
            "x",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: the embedding model 'BAAI/bge-small-en-v1.5'")
    assert "Traceback" not in proc.stderr


def test_wordllama_offline_from_the_wheel() -> None:
    wl = make_embedder("wordllama")
    v = wl.embed(["get the weather", "send an email", "weather forecast"])
    assert v.shape == (3, 256) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[2] > v[0] @ v[1]  # weather is closer to weather than to email


@pytest.mark.shared_model
def test_shared_minilm_from_a_local_folder(shared_model: Path) -> None:
    e = make_embedder(f"fastembed:sentence-transformers/all-MiniLM-L6-v2@{shared_model}")
    assert (e.dim, e.max_words) == (384, 256)
    assert e.key == "fastembed:sentence-transformers/all-MiniLM-L6-v2@sha256:8199be6f699a395f"
    v = e.embed(["get the weather", "send an email", "weather forecast"])
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[2] > v[0] @ v[1]


def test_wordllama_in_length_order_gives_wordllamas_own_vectors() -> None:
    """Embedding sorted by length (less padding per batch) must not move a vector: each text
    gets exactly what WordLlama gives it in the caller's order, and the rows come back in it."""
    emb = make_embedder("wordllama")
    assert isinstance(emb, WordLlamaEmbedder)
    words = ["search", "weather", "flights", "hotel", "currency", "convert", "stock", "price"]
    texts = [" ".join(words[: 1 + (i * 7) % 9] * (1 + (i * 13) % 40)) for i in range(150)]
    own = emb._wl.embed(texts, norm=True)
    np.testing.assert_array_equal(emb.embed(texts), own / np.linalg.norm(own, axis=1)[:, None])


def test_wordllama_embeds_an_empty_text_as_zero_without_a_numpy_warning() -> None:
    """Issue 35.7: an empty name pooled to 0/0 inside WordLlama: NaN and a RuntimeWarning on the
    user's terminal. It is a text that says nothing: a zero vector, and no warning."""
    import warnings

    embedder = make_embedder("wordllama")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        vectors = embedder.embed(["", "get the weather"])
    assert np.isfinite(vectors).all()
    assert not vectors[0].any()
    assert abs(float(np.linalg.norm(vectors[1])) - 1.0) < 1e-5


def test_wordllama_pools_the_sample_library_bit_for_bit_as_wordllama(store: Store) -> None:
    """The embedder pools each text's own tokens instead of WordLlama's padded batches (half the
    CPU): on the bundled sample's real tool documents (long JSON, unicode, empty fields), plus an
    empty text, every vector equals WordLlama's own, bit for bit."""
    from toolex.loaders import load_stabletoolbench
    from toolex.resources import data_path
    from toolex.retrieval.texts import load_library
    from toolex.tooldoc.render import truncate

    load_stabletoolbench(store, data_path("sample"), name="s")
    embedder = make_embedder("wordllama")
    assert isinstance(embedder, WordLlamaEmbedder) and embedder.max_words
    texts = [truncate(t, embedder.max_words) for t in load_library(store, "s").texts]
    texts = [*texts, "", "\u00e9t\u00e9 \u2014 caf\u00e9 \U0001f600"]
    own = embedder._wl.embed(texts[:-2], norm=True)  # 64 at a time, padded, in this order
    mine = embedder.embed(texts)
    assert len(texts) == 1189
    np.testing.assert_array_equal(mine[:-2], own / np.linalg.norm(own, axis=1)[:, None])
    assert not mine[-2].any()  # no token: zero, as before
    last = embedder._wl.embed(texts[-1:], norm=True)
    np.testing.assert_array_equal(mine[-1:], last / np.linalg.norm(last, axis=1)[:, None])


def test_requests_is_whole_after_wordllama_loads() -> None:
    """A library that imports ``requests.adapters`` after WordLlama loaded (huggingface_hub, for
    a fastembed model) gets requests as its own __init__ made it: a deferred package left
    ``requests.__version__`` a module and urllib3's DependencyWarning on stderr. A process of its
    own: this one may hold requests already."""
    import subprocess
    import sys

    code = (
        "from toolex.retrieval.embedders import WordLlamaEmbedder; WordLlamaEmbedder()\n"
        "import requests.adapters, requests; print(type(requests.__version__).__name__)"
    )
    done = subprocess.run(
        [sys.executable, "-W", "always", "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "str"
    assert "DependencyWarning" not in done.stderr
