"""The embedding model the offline judge reads documents with, loaded once per process per spec.

By default the bundled WordLlama (no network, no download). A user may give a local model
instead, in the retriever's embedder specs (toolex.retrieval.embedders), with ``[judges]
embedding = "fastembed:<model>@<folder>"`` in toolex.toml (or ``embedding=`` to ``make_judge``
for the offline judge). The thresholds and calibration the judge cuts at were fitted per
embedding (toolex.judges.operating_points): an embedding is named by its **model**, never its
folder, so moving the folder keeps its operating points and its recorded settings.

Like the config file's prices (toolex.llm.pricing), the embedding chosen by the config file is one
per process (``choose``; the last config loaded decides): every offline judge the process builds
reads with it, the verify stage's pre-screen included, unless built with an embedding of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toolex.errors import InputError

if TYPE_CHECKING:  # the type only: `toolex eval` reads DEFAULT_EMBEDDING, not the verifier's rules
    import numpy as np

    from toolex.judges.evidence import Embed
    from toolex.retrieval.embedders import WordLlamaEmbedder

DEFAULT_EMBEDDING = "wordllama"  # the spec, and the model name its operating points are keyed by
_LOADED: dict[str, Embed] = {}  # spec -> embed function, loaded once per process
_CHOSEN: list[str] = []  # the config file's spec, when it gave one


def model_of(spec: str) -> str:
    """The model a spec names (what operating points and recorded settings are keyed by):
    ``wordllama``, or the fastembed model name without its folder. Raises ``ValueError`` for a
    spec that is neither."""
    spec = spec.strip()
    if spec == DEFAULT_EMBEDDING:
        return DEFAULT_EMBEDDING
    if spec == "fastembed" or spec.startswith("fastembed:"):
        from toolex.retrieval.embedders import DEFAULT_FASTEMBED_MODEL

        name = spec.partition(":")[2].partition("@")[0].strip()
        return name or DEFAULT_FASTEMBED_MODEL
    raise ValueError(
        f"unknown embedding {spec!r}; use wordllama (the default), fastembed:<model> or "
        "fastembed:<model>@<local-folder>, e.g. fastembed:sentence-transformers/all-MiniLM-L6-v2"
        "@../shared/models/all-MiniLM-L6-v2-onnx-int8"
    )


def checked(spec: str, *, path: str | None = None, field: str = "judges.embedding") -> str:
    """``spec`` stripped, once its form is valid and its local folder holds a model; errors name
    ``field`` and the file ``path`` it was read from. Loads nothing (that is ``embed_for``)."""
    spec = spec.strip()
    try:
        model = model_of(spec)
    except ValueError as exc:
        raise InputError(str(exc), path=path, field=field) from None
    if model != DEFAULT_EMBEDDING and not _known_to_fastembed(model):
        raise InputError(
            f"embedding {spec!r}: fastembed has no model {model!r} (its registry sets the "
            'pooling and normalisation); `python -c "from fastembed import TextEmbedding; '
            'print(TextEmbedding.list_supported_models())"` lists them',
            path=path,
            field=field,
        )
    folder = spec.partition("@")[2].strip() if spec.startswith("fastembed") else ""
    if "@" in spec and not folder:
        raise InputError(f"embedding {spec!r} names no folder after '@'", path=path, field=field)
    if folder:
        where = Path(folder).expanduser()
        if not where.is_dir():
            raise InputError(
                f"embedding {spec!r}: no folder {where.resolve()} (a relative folder is read "
                "from the directory toolex runs in)",
                path=path,
                field=field,
            )
        if not (where / "model.onnx").is_file():
            raise InputError(
                f"embedding {spec!r}: no model.onnx in {where.resolve()} (the folder must hold "
                "model.onnx, tokenizer.json, tokenizer_config.json, config.json, "
                "special_tokens_map.json)",
                path=path,
                field=field,
            )
    return spec


def _known_to_fastembed(model: str) -> bool:
    from fastembed import TextEmbedding

    return any(m["model"].lower() == model.lower() for m in TextEmbedding.list_supported_models())


def choose(spec: str | None) -> None:
    """Make ``spec`` the embedding of every offline judge this process builds from now on
    (None: the default, WordLlama). The config file calls it once it is read and checked."""
    _CHOSEN.clear()
    if spec is not None and spec.strip() != DEFAULT_EMBEDDING:
        _CHOSEN.append(spec.strip())


def chosen() -> str:
    """The embedding spec offline judges read with unless given one: the config file's, else
    WordLlama."""
    return _CHOSEN[0] if _CHOSEN else DEFAULT_EMBEDDING


def embed_for(spec: str) -> Embed:
    """The embed function of ``spec``, loaded on first use and kept for the process."""
    if spec not in _LOADED:
        from toolex.retrieval.embedders import WordLlamaEmbedder, make_embedder

        embedder = make_embedder(spec)
        if isinstance(embedder, WordLlamaEmbedder):
            _LOADED[spec] = _Pooled(embedder)
        else:
            _LOADED[spec] = embedder.embed
    return _LOADED[spec]


class _Pooled:
    """``WordLlamaEmbedder.embed``'s vectors, bit for bit, for about half its CPU (issue 34: a
    verify batch of ToolRet model cards spent more in this than in the rules).

    WordLlama tokenises each batch of 64 padded to its longest text, gathers a (64, longest,
    256) block, multiplies it by the padding mask and sums it. Here each text's own token rows
    (where the mask is 1) are gathered and summed: NumPy sums a non-contiguous axis row after
    row in both, and the padding's rows only ever added zeros, so every float is the same; the
    division, the norm and ``normalise`` are WordLlama's and the embedder's own expressions
    (tests/judges/test_embedding.py compares the two on real documents). Texts go to the
    model's own tokenizer in batches of 64 in length order, so little is padded."""

    def __init__(self, embedder: WordLlamaEmbedder) -> None:
        model = embedder._wl
        self._table = model.embedding  # float32, C-contiguous (WordLlamaInference makes it so)
        self._dim = int(self._table.shape[1])
        tokenizer = model.tokenizer
        # encode_batch_fast (tokenizers >= 0.21) skips the character offsets nobody reads
        self._encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        from toolex.retrieval.embedders import normalise

        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        last = self._table.shape[0] - 1
        one = np.float32(1.0)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), 64):
            batch = order[start : start + 64]
            encoded = self._encode([texts[i] for i in batch], add_special_tokens=False)
            for i, enc in zip(batch, encoded, strict=True):
                ids = np.array(enc.ids, dtype=np.int32)[np.array(enc.attention_mask, dtype=bool)]
                np.clip(ids, 0, last, out=ids)
                # WordLlama's avg_pool: a float32 sum over the tokens over max(count, 1)
                total = np.add.reduce(self._table[ids], axis=0, dtype=np.float32)  # np.sum's
                out[i] = total / max(np.float32(len(ids)), one)
        with np.errstate(invalid="ignore", divide="ignore"):
            out /= np.linalg.norm(out, axis=1, keepdims=True)
        out[~np.isfinite(out).all(axis=1)] = 0.0  # a text of no token: the embedder's zero
        return normalise(out)


def wordllama() -> Embed:
    """The bundled WordLlama embedder, loaded once per process."""
    return embed_for(DEFAULT_EMBEDDING)
