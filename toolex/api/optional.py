"""Optional packages the API hands results over in: pandas is not a dependency of toolex (the
CLI needs none), so a function returning a DataFrame says how to get it."""

from __future__ import annotations

from types import ModuleType

from toolex.errors import ToolexError


def pandas() -> ModuleType:
    """The pandas module, or a ToolexError saying how to install it."""
    import importlib

    try:
        return importlib.import_module("pandas")
    except ImportError:
        raise ToolexError(
            "this function returns a pandas DataFrame: pip install 'toolex[pandas]' (or use "
            "toolex.sql, which returns Arrow)"
        ) from None
