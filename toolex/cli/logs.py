"""How the CLI sets up logging: when Python's ``logging`` is first imported, not before.

Every command sets logging up before any library can (toolex.cli.main's redacted root handler,
toolex.cli.progress.quiet_library_logs): importing wordllama calls ``logging.basicConfig(level=
INFO)``, after which the HTTP clients logged every request, URL and all, on stderr. Importing
``logging`` (with ``traceback``, ``linecache``, ``tokenize``, ``string``) to do it cost 5 CPU-ms
of every command, and most commands (`toolex eval`, `--help`) never log or import a library that
does. So :func:`when_imported` runs a set-up the moment ``logging``'s module has run, whoever
imports it: still before the importer's next line, so before any library's ``basicConfig``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec

NAME = "logging"
_pending: list[Callable[[], None]] = []


def when_imported(set_up: Callable[[], None]) -> None:
    """Run ``set_up`` now if ``logging`` is imported, else right after its first import."""
    if NAME in sys.modules:
        set_up()
        return
    _pending.append(set_up)
    if not any(isinstance(finder, _AfterLogging) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AfterLogging())


def _run_pending() -> None:
    while _pending:
        _pending.pop(0)()


class _AfterLogging:
    """A meta path finder that finds ``logging`` as the finders after it do, with a loader that
    runs the pending set-ups once the module has run; it leaves ``sys.meta_path`` at once."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name != NAME:
            return None
        sys.meta_path.remove(self)
        spec = _spec(name, path, target)
        if spec is not None and spec.loader is not None:
            # the import system calls only create_module and exec_module of it
            spec.loader = cast("Loader", _ThenSetUp(spec.loader))
        return spec


def _spec(name: str, path: Sequence[str] | None, target: ModuleType | None) -> ModuleSpec | None:
    """The spec the finders of ``sys.meta_path`` give ``name``, as the import system asks."""
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)  # a legacy finder may lack it
        spec: ModuleSpec | None = find(name, path, target) if find is not None else None
        if spec is not None:
            return spec
    return None


class _ThenSetUp:
    """The real loader of ``logging``, then the set-ups; the module keeps the real loader (the
    import system asks this one only to create and run the module)."""

    def __init__(self, loader: Loader) -> None:
        self._loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self._loader
        if module.__spec__ is not None:
            module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        _run_pending()
