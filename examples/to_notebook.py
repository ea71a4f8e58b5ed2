"""Write the .ipynb of a percent-format example (``# %%`` cells), with nothing but the standard
library: ``python examples/to_notebook.py examples/score_a_retriever.py`` writes
``examples/score_a_retriever.ipynb``. The .py file is the source; a test keeps the notebook
equal to what this makes of it."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path


def cells(source: str) -> list[dict[str, object]]:
    """The notebook cells of a percent-format script: ``# %% [markdown]`` cells lose their
    ``# `` prefixes; code cells are kept as written (a leading blank line dropped)."""
    out: list[dict[str, object]] = []
    for chunk in re.split(r"^# %%", source, flags=re.MULTILINE)[1:]:
        header, _, body = chunk.partition("\n")
        lines = body.strip("\n").splitlines()
        if header.strip() == "[markdown]":
            text = [line.removeprefix("#").removeprefix(" ") for line in lines]
            out.append({"cell_type": "markdown", "metadata": {}, "source": _joined(text)})
        else:
            out.append(
                {
                    "cell_type": "code",
                    "execution_count": None,
                    "metadata": {},
                    "outputs": [],
                    "source": _joined(lines),
                }
            )
    return out


def _joined(lines: list[str]) -> list[str]:
    return [line + "\n" for line in lines[:-1]] + lines[-1:]


def notebook(script: Path) -> str:
    """The .ipynb text of ``script``."""
    book = {
        "cells": cells(script.read_text(encoding="utf-8")),
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(book, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    for name in sys.argv[1:]:
        path = Path(name)
        path.with_suffix(".ipynb").write_text(notebook(path), encoding="utf-8")
