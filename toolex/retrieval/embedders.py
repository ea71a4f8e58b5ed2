"""Dense embedders behind one small interface, chosen by a spec string.

Specs::

    wordllama                          WordLlama l2_supercat, 256-d; weights ship in the PyPI wheel,
                                       so it runs on a machine with no network at all
    fastembed                          = fastembed:BAAI/bge-small-en-v1.5 (the online default)
    fastembed:<model-name>             any model of fastembed's registry, downloaded on first use
    fastembed:<model-name>@<folder>    the same model read from a local ONNX folder, offline
                                       (e.g. ../shared/models/all-MiniLM-L6-v2-onnx-int8)

and a model behind an embeddings endpoint, ``openai-embed:<model>`` or
``compat-embed:<base_url>#<model>`` (toolex.retrieval.endpoint), which
:func:`toolex.retrieval.search.make_retriever` builds.

Why BAAI/bge-small-en-v1.5 for online users: it is fastembed's own default, 384-d (as cheap to
store and search as MiniLM), reads 512 tokens instead of MiniLM's 256 (tool documentation is long
JSON) and scores clearly higher than all-MiniLM-L6-v2 on MTEB retrieval, at ~130 MB of int8/fp32
ONNX that runs on a laptop CPU.

Every embedder returns float32 rows of unit L2 norm, so cosine similarity is a dot product.
``key`` identifies the model for the embedding cache: for a local folder it is the hash of the
ONNX graph, not the path, so moving the folder keeps the cache and swapping the model drops it.
"""

from __future__ import annotations

import hashlib
import os
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from toolex.errors import InputError, ModelUnavailableError
from toolex.retrieval.wordpieces import WordPieces, pooled
from toolex.store import Store

DEFAULT_FASTEMBED_MODEL = "BAAI/bge-small-en-v1.5"
_OFFLINE_HINT = (
    "offline options: a local ONNX folder with `fastembed:<model-name>@<folder>` (e.g. "
    "fastembed:sentence-transformers/all-MiniLM-L6-v2"
    "@../shared/models/all-MiniLM-L6-v2-onnx-int8), "
    "or `wordllama` (weights inside the PyPI wheel), or `bm25`"
)
HUB_HOST = ("huggingface.co", 443)
PROBE_TIMEOUT_S = 3.0


class Embedder(Protocol):
    spec: str  # as the user wrote it (credentials redacted)
    key: str  # model identity for the embedding cache
    model: str  # human-readable model name, recorded with runs
    dim: int  # 0 until known (an endpoint's width is learnt from its first vectors)
    max_words: int | None  # texts are cut to this many words before embedding
    texts_per_call: int  # texts handed to one embed() call (the cache stores after each)

    def bind(self, store: Store) -> None:
        """Where the calls that cost are recorded (an endpoint's call ledger); local models
        make none."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def make_embedder(spec: str) -> Embedder:
    """Build the embedder named by ``spec`` (see module docstring)."""
    if spec == "wordllama":
        return WordLlamaEmbedder()
    if spec == "fastembed" or spec.startswith("fastembed:"):
        rest = spec.partition(":")[2] or DEFAULT_FASTEMBED_MODEL
        name, _, folder = rest.partition("@")
        return FastEmbedEmbedder(spec, name.strip(), Path(folder).expanduser() if folder else None)
    raise InputError(
        f"unknown embedder {spec!r}; use wordllama, fastembed:<model>, "
        "fastembed:<model>@<local-folder>, openai-embed:<model> or "
        "compat-embed:<base_url>#<model>",
        field="retriever",
    )


def normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)


# The loaded model by dimension, one per process: the demo built it four times (the index, the
# judge, each dense run), 0.1-0.25 CPU-s each. Its embed reads the model and changes nothing.
_WORDLLAMA: dict[int, Any] = {}
_PIECES: dict[int, WordPieces] = {}


@dataclass
class WordLlamaEmbedder:
    """WordLlama (Miller, 2024): token-embedding average of an LLM's codebook; no network.

    wordllama 0.4.0 does not find its bundled tokenizer unless ``cache_dir`` points into the
    installed package, hence the explicit folder.
    """

    dim: int = 256
    max_words: int | None = 512
    texts_per_call: int = 128

    def __post_init__(self) -> None:
        # requests is imported as it is (WordLlama imports it to download weights toolex never
        # asks for): deferred, its __init__ did not run when a library imported a submodule
        # first (huggingface_hub: `requests.adapters`), leaving `requests.__version__` a module
        # and urllib3's DependencyWarning on stderr, for 0.03 CPU-s (tests/retrieval)
        import wordllama
        from wordllama import WordLlama

        self.spec = "wordllama"
        self.model = f"wordllama:l2_supercat:{self.dim}"
        self.key = f"{self.model}@{_dist_version('wordllama')}"
        if self.dim not in _WORDLLAMA:
            _WORDLLAMA[self.dim] = WordLlama.load(
                dim=self.dim, disable_download=True, cache_dir=Path(wordllama.__file__).parent
            )
            # each distinct word tokenised once (toolex.retrieval.wordpieces): the tokenizer
            # was ~40% of embedding a library of model cards, and most words repeat
            _PIECES[self.dim] = WordPieces(_WORDLLAMA[self.dim].tokenizer)
        self._wl = _WORDLLAMA[self.dim]
        self._pieces = _PIECES[self.dim]

    def bind(self, store: Store) -> None:
        """A local model: no call to record."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # A text with no token (an empty name) pools to a zero vector, which WordLlama divides
        # by its zero norm: NaN, and NumPy's RuntimeWarning on the user's terminal. Such a text
        # says nothing, so its vector is zero (cosine 0 with everything), and the warning is
        # handled here, where it arises, rather than printed.
        with np.errstate(invalid="ignore", divide="ignore"):
            vectors = pooled(self._wl.embedding, self._pieces, texts)
        vectors[~np.isfinite(vectors).all(axis=1)] = 0.0
        return normalise(vectors)


class FastEmbedEmbedder:
    """A fastembed ONNX model, from its registry or from a local folder."""

    texts_per_call = 128

    def __init__(self, spec: str, name: str, folder: Path | None) -> None:
        from fastembed import TextEmbedding

        self.spec = spec
        self.model = name
        info = _registry_entry(TextEmbedding, name)
        self.dim = int(info["dim"])
        kwargs: dict[str, Any] = {}
        if folder is not None:
            onnx = folder / "model.onnx"
            if not onnx.is_file():
                raise ModelUnavailableError(
                    f"no model.onnx in {folder} (the folder of embedder {spec!r}); it must hold "
                    "model.onnx, tokenizer.json, tokenizer_config.json, config.json, "
                    "special_tokens_map.json"
                )
            kwargs["specific_model_path"] = str(folder)
            self.key = f"fastembed:{name}@sha256:{_file_sha256(onnx)[:16]}"
            self._te = self._load(TextEmbedding, name, kwargs)
        else:
            self.key = f"fastembed:{name}"
            self._te = self._load_from_hub(TextEmbedding, name)
        # One word is at least one token, so cutting to the model's token limit in words never
        # drops text the model would have read; it only spares tokenising huge JSON documents.
        self.max_words: int | None = _token_limit(self._te) or 512

    def bind(self, store: Store) -> None:
        """A local model: no call to record."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise(np.stack(list(self._te.embed(list(texts), batch_size=64))))

    def _load(self, cls: Any, name: str, kwargs: Mapping[str, object]) -> Any:
        try:
            return cls(name, **kwargs)
        except Exception as exc:  # fastembed raises bare ValueError/OSError/RuntimeError
            raise ModelUnavailableError(f"fastembed cannot load {name!r}: {exc}") from exc

    def _load_from_hub(self, cls: Any, name: str) -> Any:
        # First the local cache only: no network, no waiting. fastembed logs the miss as an
        # ERROR through loguru; it is an expected step here, so silence it.
        from loguru import logger

        logger.disable("fastembed")
        try:
            return cls(name, local_files_only=True)
        except Exception:
            pass
        finally:
            logger.enable("fastembed")
        if _offline() or not _hub_reachable():
            raise ModelUnavailableError(
                f"the embedding model {name!r} is not in the local fastembed cache and the model "
                f"hub ({HUB_HOST[0]}) cannot be reached; {_OFFLINE_HINT}"
            )
        return self._load(cls, name, {})


def _registry_entry(cls: Any, name: str) -> dict[str, Any]:
    entry: dict[str, Any]
    for entry in cls.list_supported_models():
        if entry["model"].lower() == name.lower():
            return entry
    raise InputError(
        f'fastembed has no model {name!r}; `python -c "from fastembed import TextEmbedding; '
        f'print(TextEmbedding.list_supported_models())"` lists them ({_OFFLINE_HINT})',
        field="retriever",
    )


def _token_limit(te: Any) -> int | None:
    try:
        tok = te.model.tokenizer
        trunc = tok.truncation
        return int(trunc["max_length"]) if trunc else None
    except Exception:
        return None


def _offline() -> bool:
    flags = (os.environ.get("HF_HUB_OFFLINE", ""), os.environ.get("TOOLEX_OFFLINE", ""))
    return any(f.strip().lower() in ("1", "true", "yes", "on") for f in flags)


def _hub_reachable() -> bool:
    """One TCP connect with a short timeout, so an offline machine fails in seconds, not minutes."""
    try:
        with socket.create_connection(HUB_HOST, timeout=PROBE_TIMEOUT_S):
            return True
    except OSError:
        return False


def _file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _dist_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "?"
