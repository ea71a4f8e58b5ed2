"""The dependency rule on real ToolRet items (shared data): apibank's token hand-off is derived
from its docs, and a replacement from another provider is rejected before any audit call."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from toolex.loaders import load_toolret
from toolex.pipeline import assemble
from toolex.pipeline.stage import StageContext
from toolex.store import Store

QUERY = "apibank_query_94"  # "Can you help me set an alarm for 8 am tomorrow?"
GET_USER_TOKEN, ADD_ALARM = "apibank_tool_0", "apibank_tool_18"
TOKEN2GO = "apigen_tool_2352"  # "Fetches the content of a link or token ... using the Token2Go API"
OAUTH_ECHO = (
    "apigen_tool_2111"  # "Generates an OAuth token from the RapidAPI 'OAuth Echo' endpoint"
)


@pytest.fixture(scope="module")
def toolret(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    store = Store.open(tmp_path_factory.mktemp("toolret") / "t.duckdb")
    load_toolret(store, shared_data / "toolret", tasks=["apibank", "apigen"])
    yield store
    store.close()


def test_platforms_are_derived_from_the_docs(toolret: Store) -> None:
    rows = toolret.con.execute(
        "SELECT item_id, platform, platform_source FROM items WHERE item_id IN (?, ?, ?, ?) "
        "ORDER BY item_id",
        [GET_USER_TOKEN, ADD_ALARM, TOKEN2GO, OAUTH_ECHO],
    ).fetchall()
    sandbox = "task apibank: every tool is an API of the API-Bank sandbox"
    assert rows == [
        (GET_USER_TOKEN, "API-Bank", sandbox),
        (ADD_ALARM, "API-Bank", sandbox),
        (OAUTH_ECHO, None, None),  # names an endpoint, not a provider: unknown, and said so
        (TOKEN2GO, "Token2Go", "description: 'the Token2Go API'"),
    ]
    # a derived platform is not rendered: the text stays what ToolRet's retrievers index
    text = toolret.con.execute("SELECT text FROM items WHERE item_id = ?", [TOKEN2GO]).fetchall()[0]
    assert "platform:" not in text[0]


def test_a_cross_platform_token_hand_off_is_rejected(toolret: Store) -> None:
    for slot, ref, accepted in [
        (0, GET_USER_TOKEN, [TOKEN2GO, OAUTH_ECHO]),
        (1, ADD_ALARM, []),
    ]:
        toolret.con.execute(
            "INSERT INTO subqueries (benchmark, expansion, query_id, slot, text, "
            "reference) VALUES ('toolret', 't', ?, ?, 's', ?)",
            [QUERY, slot, ref],
        )
        for rank, item in enumerate([ref, *accepted], start=1):
            toolret.con.execute(
                "INSERT INTO candidates VALUES ('toolret', 't', ?, ?, ?, ?, 1.0, 'bm25')",
                [QUERY, slot, item, rank],
            )
            toolret.con.execute(
                "INSERT INTO verdicts VALUES ('toolret', 't', ?, ?, ?, true, NULL, 'j', "
                "NULL, NULL)",
                [QUERY, slot, item],
            )
    assemble.run(StageContext(toolret, "toolret", "t", [QUERY]))
    dependency = toolret.con.execute(
        "SELECT slot_a, slot_b, source, producer_slot, value FROM dependencies "
        "WHERE expansion = 't'"
    ).fetchall()
    # AddAlarm needs the token GetUserToken returns (apibank marks no parameter required;
    # a parameter without a default must be given)
    assert dependency == [(0, 1, "docs", 0, "token")]
    got = {
        items[0]: (status, check, reason)
        for items, status, check, reason in toolret.con.execute(
            "SELECT list(ci.item_id ORDER BY ci.slot), c.status, c.dependency_check, c.reason "
            "FROM combinations c JOIN combination_items ci USING (benchmark, expansion, "
            "query_id, combo_id) WHERE c.expansion = 't' "
            "GROUP BY c.combo_id, c.status, c.dependency_check, c.reason"
        ).fetchall()
    }
    # Token2Go cannot hand API-Bank its token: rejected before any audit call, counted
    # (schema 066), never stored
    assert TOKEN2GO not in got
    assert toolret.con.execute(
        "SELECT product, stored, rejected_platform, unstored FROM combination_products "
        "WHERE expansion = 't'"
    ).fetchall() == [(3, 2, 1, 0)]
    assert got[OAUTH_ECHO][:2] == ("pending", "unknown")  # no platform: not passed silently
    assert got[GET_USER_TOKEN][:2] == ("valid", "passed")
