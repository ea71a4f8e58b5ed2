"""A titled block of the detail screens: a one-line rule title over its content."""

from __future__ import annotations

from textual.widgets import Static


class SectionTitle(Static):
    """Bold, coloured section heading; kept as a widget so tests can find sections by id."""

    DEFAULT_CLASSES = "section-title"
