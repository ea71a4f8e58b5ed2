"""Odd but legal label shapes (issue 27.1), written as the files of four loaders and of `load
plain --map`: a query whose labels repeat one tool in two or more slots, with the repeat first,
last or in the middle, with a higher grade on the repeat, with slots given out of file order or
not at all, with dependency edges by slot number. The library has tools with identical
documentation (``mail::send`` / ``post::send``, ``weather::current`` / ``weather::now``), so the
offline judge accepts equivalents and the expansion moves labels' grades onto other tools.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DOCS = {
    "weather::current": "Current weather conditions for a city: temperature, wind and rain.",
    "weather::now": "Current weather conditions for a city: temperature, wind and rain.",
    "mail::send": "Send an email message to a recipient address with a subject and body.",
    "post::send": "Send an email message to a recipient address with a subject and body.",
    "calendar::create": "Create a calendar event with a title, a start time and attendees.",
    "sms::send": "Send a short text message to a mobile phone number.",
}
TEXT = {
    "repro": "Check the weather in Paris and email the forecast to my boss",
    "grade_later": "Email the agenda and put the meeting in my calendar",
    "triple": "Plan three meetings, check the weather and email the plan",
    "implicit": "Look up the weather twice today and email me the change",
    "unordered": "Email me tomorrow's forecast after checking the weather twice",
    "edges": "Get the forecast twice and email it to the team",
    "plain": "Check the weather and email it",
}
# query -> label lines (item, relevance, slot or None = file order)
LABELS: dict[str, list[tuple[str, int, int | None]]] = {
    "repro": [("weather::current", 1, 0), ("weather::current", 1, 1), ("mail::send", 2, 2)],
    "grade_later": [("mail::send", 1, 0), ("mail::send", 3, 1), ("calendar::create", 2, 2)],
    "triple": [
        ("calendar::create", 1, 0),
        ("weather::current", 1, 1),
        ("calendar::create", 2, 2),
        ("calendar::create", 1, 3),
        ("mail::send", 2, 4),
    ],
    "implicit": [
        ("weather::current", 1, None),
        ("weather::current", 1, None),
        ("mail::send", 2, None),
    ],
    "unordered": [("mail::send", 2, 2), ("weather::current", 3, 0), ("weather::current", 1, 1)],
    "edges": [("weather::current", 1, 0), ("weather::current", 1, 1), ("mail::send", 2, 2)],
    "plain": [("weather::current", 1, 0), ("mail::send", 2, 1)],
}
# slot 1 (the repeated forecast) feeds slot 2 (the mail): after the merge, 0 -> 1. The edge
# 0 -> 1 joins the two copies of one tool: it is dropped, with a note.
EDGES: dict[str, list[dict[str, Any]]] = {
    "edges": [{"from": 1, "to": 2, "value": "forecast"}, {"from": 0, "to": 1}]
}
# What the store must hold afterwards: per query, (item, relevance, slot) in slot order.
STORED = {
    "repro": [("weather::current", 1, 0), ("mail::send", 2, 1)],
    "grade_later": [("mail::send", 3, 0), ("calendar::create", 2, 1)],
    "triple": [("calendar::create", 2, 0), ("weather::current", 1, 1), ("mail::send", 2, 2)],
    "implicit": [("weather::current", 1, 0), ("mail::send", 2, 1)],
    "unordered": [("weather::current", 3, 0), ("mail::send", 2, 1)],
    "edges": [("weather::current", 1, 0), ("mail::send", 2, 1)],
    "plain": [("weather::current", 1, 0), ("mail::send", 2, 1)],
}
# Runs as the retriever would return them: every query gets the same ranking.
RUNS = {
    "cur-post": ["weather::current", "post::send"],  # the run
    "now-post-cal": ["weather::now", "post::send", "calendar::create", "sms::send"],
    "everything": ["sms::send", "post::send", "calendar::create", "weather::now", "mail::send",
                   "weather::current"],
}  # fmt: skip


def write_plain(folder: Path) -> list[str]:
    """items/queries/qrels JSONL; returns the `toolex load plain` arguments."""
    folder.mkdir(parents=True, exist_ok=True)
    items = [{"id": i, "name": i.split("::")[1], "platform": i.split("::")[0], "text": t}
             for i, t in DOCS.items()]  # fmt: skip
    queries = [{"id": q, "text": t, **({"dependencies": EDGES[q]} if q in EDGES else {})}
               for q, t in TEXT.items()]  # fmt: skip
    qrels = [
        {"query_id": q, "item_id": i, "relevance": r, **({} if s is None else {"slot": s})}
        for q, labels in LABELS.items()
        for i, r, s in labels
    ]
    for name, rows in (("items", items), ("queries", queries), ("qrels", qrels)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return ["load", "plain", "--name", "b", *(a for n in ("items", "queries", "qrels")
            for a in (f"--{n}", str(folder / f"{n}.jsonl")))]  # fmt: skip


def write_beir(folder: Path) -> list[str]:
    """The BEIR layout: repeated qrels lines merged by the loader (file order as slots)."""
    (folder / "qrels").mkdir(parents=True, exist_ok=True)
    corpus = [{"_id": i, "title": i.split("::")[1], "text": t} for i, t in DOCS.items()]
    queries = [{"_id": q, "text": t} for q, t in TEXT.items()]
    (folder / "corpus.jsonl").write_text("".join(json.dumps(r) + "\n" for r in corpus))
    (folder / "queries.jsonl").write_text("".join(json.dumps(r) + "\n" for r in queries))
    lines = ["query-id\tcorpus-id\tscore"]
    for q, labels in LABELS.items():
        ordered = sorted(labels, key=lambda lab: -1 if lab[2] is None else lab[2])
        lines += [f"{q}\t{i}\t{r}" for i, r, _ in ordered]
    (folder / "qrels" / "test.tsv").write_text("\n".join(lines) + "\n")
    return ["load", "beir", str(folder), "--name", "b"]


def write_stabletoolbench(folder: Path) -> list[str]:
    """test_instruction/G1_instruction.json: 'relevant APIs' repeats dropped by the loader."""
    (folder / "test_instruction").mkdir(parents=True, exist_ok=True)
    api_list = [
        {"tool_name": i.split("::")[0], "api_name": i.split("::")[1], "api_description": t}
        for i, t in DOCS.items()
    ]
    records = []
    for n, (q, labels) in enumerate(LABELS.items()):
        ordered = sorted(labels, key=lambda lab: -1 if lab[2] is None else lab[2])
        records.append({"query_id": n, "query": TEXT[q], "api_list": api_list,
                        "relevant APIs": [i.split("::") for i, _, _ in ordered]})  # fmt: skip
    (folder / "test_instruction" / "G1_instruction.json").write_text(json.dumps(records))
    return ["load", "stabletoolbench", str(folder), "--name", "b"]


def write_toolret(folder: Path) -> list[str]:
    """A ToolRet task folder: each query's labels list, a repeated tool merged by the loader."""
    task = folder / "toolret" / "web"
    task.mkdir(parents=True, exist_ok=True)
    tools = [{"id": i, "documentation": {"name": i.split("::")[1], "description": t}}
             for i, t in DOCS.items()]  # fmt: skip
    queries = []
    for q, labels in LABELS.items():
        ordered = sorted(labels, key=lambda lab: -1 if lab[2] is None else lab[2])
        queries.append({"id": q, "query": TEXT[q],
                        "labels": [{"id": i, "relevance": r} for i, r, _ in ordered]})  # fmt: skip
    (task / "tools.json").write_text(json.dumps(tools))
    (task / "queries.json").write_text(json.dumps(queries))
    return ["load", "toolret", str(folder / "toolret"), "--name", "b"]


def write_mapped(folder: Path) -> list[str]:
    """Another library's shape through `load plain --map`: tools under "tools" of one object,
    each query's gold tools as a list of steps ({tool, grade, after: [steps it takes]}; a step
    reference names no value, so its edge's value is '')."""
    folder.mkdir(parents=True, exist_ok=True)
    tools = {"tools": [{"key": i, "name": i.split("::")[1], "about": t} for i, t in DOCS.items()]}
    (folder / "tools.json").write_text(json.dumps(tools, indent=2))
    rows = []
    for q, labels in LABELS.items():
        ordered = sorted(labels, key=lambda lab: -1 if lab[2] is None else lab[2])
        steps: list[dict[str, Any]] = [{"tool": i, "grade": r} for i, r, _ in ordered]
        for edge in EDGES.get(q, []):
            steps[edge["to"]].setdefault("after", []).append(edge["from"])
        rows.append({"qid": q, "request": TEXT[q], "steps": steps})
    (folder / "requests.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    maps = ["items=tools", "items.id=key", "items.text=about", "queries.id=qid",
            "queries.text=request", "queries.labels=steps", "queries.labels.id=tool",
            "queries.labels.relevance=grade", "queries.labels.from=after"]  # fmt: skip
    files = ["--items", str(folder / "tools.json"), "--queries", str(folder / "requests.jsonl")]
    return ["load", "plain", "--name", "b", *files, *(a for m in maps for a in ("--map", m))]


def write_run(path: Path, query_ids: list[str], ranking: list[str]) -> Path:
    path.write_text(
        "".join(
            f"{q} Q0 {item} {rank} {len(ranking) - rank + 1} r\n"
            for q in query_ids
            for rank, item in enumerate(ranking, start=1)
        )
    )
    return path


WRITERS = {
    "plain": write_plain,
    "plain --map": write_mapped,
    "beir": write_beir,
    "stabletoolbench": write_stabletoolbench,
    "toolret": write_toolret,
}
