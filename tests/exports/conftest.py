"""The report fixture store (tests/reports/fixtures.py), shared by the export tests."""

from __future__ import annotations

import pytest
from reports.fixtures import build

from toolex.store import Store


@pytest.fixture
def fixture_store(store: Store) -> Store:
    return build(store)
