"""``import lancedb`` at a third of its CPU: 0.35 CPU-s instead of 1.0 (lancedb 0.41, Python 3.11,
numpy, pyarrow and pydantic already loaded, as they are when the demo first needs Lance).

Three costs of the import serve nothing toolex does:

- ``lancedb.db`` imports ``lance_namespace``, whose models come from the package
  ``lance_namespace_urllib3_client``; that package's ``__init__`` also imports its REST API
  classes, whose 366 pydantic ``validate_call`` methods are built on import (0.5 CPU-s). A local
  table (connect, create, open, search, index, optimize) never touches them: they serve a
  namespace server. :func:`import_lancedb` registers that package before lancedb imports it, as
  a module whose ``__init__`` has not run yet but whose submodules (``.models``, which
  lance_namespace reads) import as usual. The first read of any other name of the package
  (``ApiClient``, ``TableApi``, ``__version__``) runs its ``__init__`` then, exactly as the import
  would have: the REST client is deferred, never removed.
- Below Python 3.12 lancedb marks its 114 overriding methods with the ``overrides`` package,
  whose decorator disassembles the class body so far to find the base classes and checks each
  signature against them (0.13 CPU-s); from 3.12 lancedb uses ``typing.override``, which only
  marks the method. For the length of the import ``overrides.override`` is that marker, so
  lancedb's classes are as on 3.12 (its ``EnforceOverrides`` check still runs, on the marks);
  the package's own decorator is put back after.
- Every pydantic model made while lancedb imports (lance_namespace's 146 request and response
  models above all) built its validator and serializer with its class (about 0.1 CPU-s), and
  toolex's path uses none of them: only the 4 lancedb reads while importing are built now. For
  the length of the import pydantic's ``defer_build`` is on: a model builds them the first time
  it validates or serializes, as it would have at import. The models keep the setting, so a
  subclass of one (lancedb's ``LanceModel``) also builds on first use; pydantic's default is
  put back after.

Without the package concerned (another lancedb) a step does nothing.
``tests/retrieval/test_lance_import.py`` fails if a lancedb release starts to use the REST
client on toolex's path, if the deferred client differs from the one a plain import gives, or
if a model built on first use validates otherwise than one built at import.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import sys
import threading
from collections.abc import Iterator
from types import ModuleType

REST_CLIENT = "lance_namespace_urllib3_client"
_LOCK = threading.RLock()


def import_lancedb() -> ModuleType:
    """The ``lancedb`` module, imported with the namespace REST client deferred."""
    with _LOCK:
        if "lancedb" not in sys.modules:
            _defer(REST_CLIENT)
            with _override_as_marker(), _built_on_first_use():
                import lancedb
        import lancedb

        return lancedb


@contextlib.contextmanager
def _override_as_marker() -> Iterator[None]:
    """While lancedb is imported, ``overrides.override`` only marks (see the module's docstring)."""
    if sys.version_info >= (3, 12) or importlib.util.find_spec("overrides") is None:
        yield  # lancedb uses typing.override there; or lancedb is not installed
        return
    import overrides

    checking = overrides.override
    overrides.override = _mark_override  # type: ignore[assignment]  # a marker, not a check
    try:
        yield
    finally:
        overrides.override = checking


@contextlib.contextmanager
def _built_on_first_use() -> Iterator[None]:
    """While lancedb is imported, pydantic models are made with ``defer_build`` (see the
    module's docstring); pydantic's default is put back after."""
    if importlib.util.find_spec("pydantic") is None:
        yield
        return
    from pydantic import BaseModel

    config = BaseModel.model_config  # the dict every model's config starts from
    had, before = "defer_build" in config, config.get("defer_build")
    config["defer_build"] = True
    try:
        yield
    finally:
        if had:
            config["defer_build"] = bool(before)
        else:
            config.pop("defer_build", None)


def _mark_override(method: object = None, **_checks: object) -> object:
    """What ``typing.override`` does (Python 3.12), as ``@override`` or ``@override(...)``."""
    if method is None:
        return _mark_override
    with contextlib.suppress(AttributeError, TypeError):  # a builtin or a slotted object
        setattr(method, "__override__", True)  # noqa: B010  # any object, as typing.override does
    return method


def _defer(name: str) -> None:
    """Register package ``name`` with its ``__init__`` not yet run (see the module's docstring):
    it runs on the first read of a name the package defines, as the import would have; its
    submodules import as usual. Unlike the standard library's ``LazyLoader``, a later ``import
    name`` does not run it (Python 3.11's import reads ``__spec__``, which LazyLoader counts as
    a use). Nothing is done for a package already imported or not installed. Only for a package
    no other library uses: a submodule imported first finds the ``__init__`` not run, and
    whatever it sets up missing (deferring requests left ``requests.__version__`` a module)."""
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return  # not installed, or not a package: lancedb imports what it has
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader
    state = {"run": False}

    def __getattr__(attr: str) -> object:
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
