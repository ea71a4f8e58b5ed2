"""The report fixture store (tests/reports/fixtures.py), shared by the export tests."""

from __future__ import annotations

import pytest
from reports.fixtures import build


@pytest.fixture
def fixture_store(store):
    return build(store)
