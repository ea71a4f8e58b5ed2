"""The fixture store of tests/reports/fixtures.py, built once per test."""

from __future__ import annotations

import pytest

from reports.fixtures import build
from toolex.reports.inputs import ReportContext
from toolex.store import Store


@pytest.fixture
def fixture_store(store: Store) -> Store:
    return build(store)


@pytest.fixture
def ctx(fixture_store: Store) -> ReportContext:
    return ReportContext.create(fixture_store, pairs=[("bm25", "bm25-ft")], k=3)
