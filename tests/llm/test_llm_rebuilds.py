"""Issue 35.10-12, seen with a small local model (Qwen2.5-Coder-1.5B behind llama.cpp) and played
here by scripted models behind the OpenAI-compatible scripted server:

10. a decomposition that can be rebuilt from its own operation and entity is rebuilt at once,
    never sent back (the model repeated itself word for word both times);
11. a hint can be followed: told "write the plain verb", the model wrote "delete account" for
    ``DeleteAccount`` and was rejected again, because the name's words counted as the name; the
    request's own words are never a leak, and one plain verb never is;
12. a rebuilt sub-query keeps the request's details for its step (the 'Electronics' category).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from llm.llm_support import FAST, ScriptedServer
from llm.scripted_answers import _k_of, corrected, correction, default_responder, task_text
from toolex.judges import make_judge
from toolex.judges.base import DecomposeTask, Outcome, ToolDoc
from toolex.llm.corrections import REBUILT
from toolex.llm.ledger import Ledger
from toolex.store import Store
from toolex.tooldoc.render import render_doc


def shop_tool(name: str, description: str, *params: str) -> ToolDoc:
    doc = {
        "name": name,
        "description": description,
        "required_parameters": [{"name": p, "type": "STRING", "description": ""} for p in params],
    }
    return ToolDoc(f"shop::{name}", name, "shop", doc, render_doc(doc, platform="shop"))


PRODUCTS = shop_tool("GetProducts", "Lists the products of a category.", "category")
DELETE = shop_tool("DeleteAccount", "Deletes the user's account.", "token")


def task(request: str) -> DecomposeTask:
    return DecomposeTask("q0", request, None, (PRODUCTS, DELETE))


def entry(slot: int, operation: str, entity: str, text: str) -> dict[str, object]:
    return {"tool": slot, "operation": operation, "entity": entity, "text": text}


def answer(*entries: dict[str, object]) -> str:
    return json.dumps({"subqueries": list(entries)})


def decompose(
    model: Callable[[str, dict[Any, Any]], str], request: str, store: Store
) -> tuple[Outcome, list[Any], list[dict[str, Any]]]:
    """(the outcome, the requests the server saw, the ledger's rows)."""
    with ScriptedServer(model) as s:
        judge = make_judge(
            f"compat:{s.url}/v1#qwen2.5-coder-1.5b", store, **{**FAST, "max_attempts": 4}
        )
        [outcome] = list(judge.decompose([task(request)]))
        bodies = [r["body"] for r in s.requests]
    return outcome, bodies, Ledger(store).rows()


def names_the_tool_in_its_text(provider: str, body: dict[str, Any]) -> str:
    """Names GetProducts in its first text, whatever it is told; operation and entity clean."""
    if _k_of(body) is None:
        return default_responder(provider, body)
    return answer(
        entry(0, "list", "products", "use GetProducts to list products in the 'Electronics' "
              "category"),
        entry(1, "delete", "my account", "delete my account"),
    )  # fmt: skip


SHOP = "List the products in the 'Electronics' category, then delete my account."


def test_a_decomposition_that_can_be_rebuilt_is_not_sent_back(
    llm_env: dict[str, str], store: Store
) -> None:
    outcome, bodies, rows = decompose(names_the_tool_in_its_text, SHOP, store)
    assert outcome.ok and outcome.extra["attempts"] == 1
    assert len(bodies) == 1  # was 2: asked again, it gave the same answer back word for word
    assert [r["status"] for r in rows] == ["ok"]
    assert rows[0]["error"].startswith(REBUILT) and "GetProducts" in rows[0]["error"]


def test_a_rebuilt_sub_query_keeps_the_request_s_details_for_its_step(
    llm_env: dict[str, str], store: Store
) -> None:
    outcome, _, _ = decompose(names_the_tool_in_its_text, SHOP, store)
    assert isinstance(outcome.value, list)
    products, account = (s.text for s in outcome.value)
    assert products == "list products in the 'Electronics' category"  # was "list products"
    assert account == "delete my account"


def follows_the_hint(provider: str, body: dict[str, Any]) -> str:
    """Writes its operation as the tool's name; told what was wrong, does what the hint asks:
    the name as plain words where it is asked for plain words ("delete account"), one verb
    where it is asked for one verb ("delete")."""
    if _k_of(body) is None:
        return default_responder(provider, body)
    fix = correction(body) or ""
    name = re.findall(r"name: (\w+)", task_text(body))[1]
    operation = name
    if "one plain verb" in fix and "delete account" in json.dumps(body["messages"][-2:]):
        operation = "delete"
    elif fix:
        operation = " ".join(w.lower() for w in re.findall(r"[A-Z][a-z]+", name))
    return answer(
        entry(0, "list", "products", "list the products in the 'Electronics' category"),
        entry(1, operation, "the account", "delete the account"),
    )


def test_a_name_s_words_the_request_says_are_the_plain_words_it_asks_for(
    llm_env: dict[str, str], store: Store
) -> None:
    outcome, bodies, rows = decompose(follows_the_hint, SHOP, store)
    # attempt 1: operation "DeleteAccount", rejected; attempt 2: "delete account", the words
    # the request says ("delete my account"): accepted (it was rejected again, the name's
    # words counting as the name, and the task failed)
    assert [r["status"] for r in rows] == ["malformed", "ok"]
    assert "the operation for number 1 names `DeleteAccount`" in corrected(bodies[1])
    assert outcome.ok and isinstance(outcome.value, list)
    assert outcome.value[1].operation == "delete account"


def test_a_hint_can_be_followed_where_the_request_lacks_the_name_s_words(
    llm_env: dict[str, str], store: Store
) -> None:
    """The request says "close my profile": "delete account" is the name again, and the hint
    asks for what is always accepted, one plain verb."""
    request = "List the products in the 'Electronics' category and close my profile."
    outcome, bodies, rows = decompose(follows_the_hint, request, store)
    assert [r["status"] for r in rows] == ["malformed", "malformed", "ok"]
    assert "write the operation as one plain verb" in corrected(bodies[2])
    assert outcome.ok and isinstance(outcome.value, list)
    assert outcome.value[1].operation == "delete"
