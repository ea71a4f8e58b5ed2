"""``import lancedb`` without the REST client of Lance's namespace server, which toolex never calls.

``lancedb.db`` imports ``lance_namespace``, whose models come from the package
``lance_namespace_urllib3_client``; that package's ``__init__`` also imports its REST API classes,
whose 366 pydantic ``validate_call`` methods are built on import: 1.7 of the 3.0 s that
``import lancedb`` took in the demo (lancedb 0.41, lance-namespace 0.13). A local table (connect,
create, open, search, index, optimize) never touches them: they serve a namespace server.

:func:`import_lancedb` therefore registers that package before lancedb imports it, as a module
whose ``__init__`` has not run yet but whose submodules (``.models``, which lance_namespace
reads) import as usual. The first read of any other name of the package (``ApiClient``,
``TableApi``, ``__version__``) runs its ``__init__`` then, exactly as the import would have: the
REST client is deferred, never removed. Without that package (an older lancedb) it does nothing.
``tests/retrieval/test_lance_import.py`` fails if a lancedb release starts to use the client on
toolex's path, or if the deferred client differs from the one a plain import gives.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
from types import ModuleType
from typing import Any

REST_CLIENT = "lance_namespace_urllib3_client"
_LOCK = threading.RLock()


def import_lancedb() -> ModuleType:
    """The ``lancedb`` module, imported with the namespace REST client deferred."""
    with _LOCK:
        if "lancedb" not in sys.modules:
            _defer(REST_CLIENT)
        import lancedb

        return lancedb


def _defer(name: str) -> None:
    """Register package ``name`` with its ``__init__`` not yet run (see the module's docstring)."""
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return  # not installed, or not a package: lancedb imports what it has
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader
    state = {"run": False}

    def __getattr__(attr: str) -> Any:
        with _LOCK:
            if not attr.startswith("__") and importlib.util.find_spec(f"{name}.{attr}"):
                # ``from package import submodule`` asks the package before importing it
                return importlib.import_module(f"{name}.{attr}")
            if not state["run"]:
                state["run"] = True  # a name read while __init__ runs is a real miss
                try:
                    loader.exec_module(package)
                except BaseException:
                    state["run"] = False
                    raise
                if attr in package.__dict__:
                    return package.__dict__[attr]
        raise AttributeError(f"module {name!r} has no attribute {attr!r}")

    package.__getattr__ = __getattr__  # type: ignore[method-assign]
    sys.modules[name] = package
