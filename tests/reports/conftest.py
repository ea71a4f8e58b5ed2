"""The fixture store of tests/reports/fixtures.py, built once per test."""

from __future__ import annotations

import pytest

from reports.fixtures import build
from toolex.reports.inputs import ReportContext


@pytest.fixture
def fixture_store(store):
    return build(store)


@pytest.fixture
def ctx(fixture_store):
    return ReportContext.create(fixture_store, pairs=[("bm25", "bm25-ft")], k=3)
