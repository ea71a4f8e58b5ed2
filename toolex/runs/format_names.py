"""The run formats by name, and which one a file is: apart from the readers
(:mod:`toolex.runs.formats`), so that choosing a reader loads no Arrow."""

from __future__ import annotations

from pathlib import Path

from toolex.errors import InputError

RUN_FORMATS = ("auto", "trec", "csv", "parquet", "toolret-json")


def resolve_format(path: Path, fmt: str = "auto") -> str:
    """The concrete format of ``path``: ``fmt`` itself, or (``auto``) the one its suffix names."""
    if fmt not in RUN_FORMATS:
        raise InputError(
            f"unknown run format {fmt!r}; choose one of {', '.join(RUN_FORMATS)}", field="format"
        )
    if fmt != "auto":
        return fmt
    suffix = path.suffix.lower()
    return {".parquet": "parquet", ".csv": "csv", ".tsv": "csv", ".json": "toolret-json"}.get(
        suffix, "trec"
    )
