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

from pathlib import Path
from typing import TYPE_CHECKING

from toolex.errors import InputError

if TYPE_CHECKING:  # the type only: `toolex eval` reads DEFAULT_EMBEDDING, not the verifier's rules
    from toolex.judges.evidence import Embed

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
        from toolex.retrieval.embedders import make_embedder

        # The retriever's embedder itself: WordLlama's pooling there sums each text's own
        # token rows and tokenises each distinct word once (issue 34), the judge's verify
        # batches' cost as much as the retrieval's.
        _LOADED[spec] = make_embedder(spec).embed
    return _LOADED[spec]


def wordllama() -> Embed:
    """The bundled WordLlama embedder, loaded once per process."""
    return embed_for(DEFAULT_EMBEDDING)
