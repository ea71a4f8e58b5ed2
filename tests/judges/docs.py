"""Hand-made tool documents for the offline judge's tests."""

from __future__ import annotations

import json
from typing import Any

from toolex.judges.base import ToolDoc


def tool(
    item_id: str, name: str, description: str = "", platform: str | None = None, **doc: Any
) -> ToolDoc:
    d = {"name": name, "description": description, **doc}
    return ToolDoc(item_id, name, platform, d, json.dumps(d))


def required(*names: str) -> list[dict[str, str]]:
    return [{"name": n, "type": "STRING"} for n in names]
