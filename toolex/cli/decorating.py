"""The types of the CLI's option decorators: each takes a command's function and hands it back
(click's own ``option`` does), so a command keeps its signature through any number of them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

FC = TypeVar("FC", bound=Callable[..., object])  # a command's function, as click's decorators


class Decorator(Protocol):
    """What ``click.option(...)`` returns: it adds its option to a command's function and hands
    the same function back."""

    def __call__(self, f: FC, /) -> FC: ...
