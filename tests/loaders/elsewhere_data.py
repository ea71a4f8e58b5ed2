"""Benchmarks in other people's layouts, made from ../shared/data (test fixture generators; also
used by benchmarks/bench_elsewhere.py for the figures of issue 15):

* :func:`packed_beir`: StableToolBench in the BEIR layout as tool sets converted to BEIR publish
  it: each API one corpus record whose ``text`` packs the ToolBench fields
  (``category_name: …, tool_name: …, api_name: …, api_description: …, required_params: […],
  optional_params: […]``, Python literals, as ``str(dict)`` writes them), ``title`` empty;
  one query per line; qrels TSV with a repeated (query, API) line where ``relevant APIs`` repeats
  one (a query that uses one tool twice).
* :func:`skill_library`: a SkillRet-layout skill library made from ToolRet tasks: each tool a
  skill (``id``, ``name``, ``description``, ``skill_md`` = its documentation as Markdown), each
  query ``{id, query, setting, skill_ids}`` with a graded qrels file (2 for every label).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def packed_text(api: dict[str, Any]) -> str:
    return ", ".join(
        [
            f"category_name: {api.get('category_name', '')}",
            f"tool_name: {api['tool_name']}",
            f"api_name: {api['api_name']}",
            f"api_description: {api.get('api_description') or ''}",
            f"required_params: {api.get('required_parameters') or []}",
            f"optional_params: {api.get('optional_parameters') or []}",
            f"method: {api.get('method') or ''}",
        ]
    )


def packed_beir(stb_root: Path, out: Path, groups: tuple[str, ...] | None = None) -> Path:
    """Write StableToolBench (``stb_root``: test_instruction/, test_query_ids/) to ``out`` in
    the BEIR layout with packed text; returns ``out``. Query ids are ``<group>:<id>`` and corpus
    ids ``tool_name::api_name``, as `toolex load stabletoolbench` names them."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "qrels").mkdir(exist_ok=True)
    corpus: dict[str, dict[str, Any]] = {}
    queries, qrels = [], []
    for path in sorted((stb_root / "test_instruction").glob("*.json")):
        group = path.stem
        if groups and group not in groups:
            continue
        ids_file = stb_root / "test_query_ids" / path.name
        solvable = set(map(str, json.loads(ids_file.read_text()))) if ids_file.exists() else None
        for rec in json.loads(path.read_text(encoding="utf-8")):
            for api in rec["api_list"]:  # the library: every record's APIs, as the STB loader
                corpus.setdefault(f"{api['tool_name']}::{api['api_name']}", api)
            if solvable is not None and str(rec["query_id"]) not in solvable:
                continue
            qid = f"{group}:{rec['query_id']}"
            queries.append({"_id": qid, "text": rec["query"], "metadata": {"category": group}})
            qrels += [(qid, f"{tool}::{name}") for tool, name in rec["relevant APIs"]]
    with (out / "corpus.jsonl").open("w", encoding="utf-8") as f:
        for cid, api in corpus.items():
            f.write(json.dumps({"_id": cid, "title": "", "text": packed_text(api)}) + "\n")
    with (out / "queries.jsonl").open("w", encoding="utf-8") as f:
        f.writelines(json.dumps(q) + "\n" for q in queries)
    with (out / "qrels" / "test.tsv").open("w", encoding="utf-8") as f:
        f.write("query-id\tcorpus-id\tscore\n")
        f.writelines(f"{q}\t{c}\t1\n" for q, c in qrels)
    return out


def _markdown(doc: dict[str, Any]) -> str:
    lines = [f"# {doc.get('name') or 'skill'}", ""]
    for key, value in doc.items():
        if key in ("name", "description"):
            continue
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        lines.append(f"- **{key}**: {shown}")
    return "\n".join(lines)


def skill_library(toolret_root: Path, out: Path, tasks: tuple[str, ...] = ("apibank",)) -> Path:
    """Write ToolRet ``tasks`` (``<task>/tools.json``, ``<task>/queries.json``) to ``out`` in the
    SkillRet layout (skills/, queries/, qrels/ as test.jsonl); returns ``out``."""
    for part in ("skills", "queries", "qrels"):
        (out / part).mkdir(parents=True, exist_ok=True)
    skills, queries, qrels = [], [], []
    for task in tasks:
        for tool in json.loads((toolret_root / task / "tools.json").read_text(encoding="utf-8")):
            doc = tool["documentation"]
            doc = json.loads(doc) if isinstance(doc, str) else doc
            skills.append(
                {
                    "id": tool["id"],
                    "name": doc.get("name") or tool["id"],
                    "description": doc.get("description") or doc.get("func_description") or "",
                    "skill_md": _markdown(doc),
                    "category": task,
                }
            )
        for q in json.loads((toolret_root / task / "queries.json").read_text(encoding="utf-8")):
            labels = q["labels"] if isinstance(q["labels"], list) else json.loads(q["labels"])
            ids = [lab["id"] for lab in labels]
            setting = "single_skill" if len(ids) == 1 else "multi_skill_composition"
            queries.append({"id": q["id"], "query": q["query"], "setting": setting,
                            "skill_ids": ids})  # fmt: skip
            qrels += [{"query_id": q["id"], "skill_id": i, "relevance": 2} for i in ids]
    for part, rows in (("skills", skills), ("queries", queries), ("qrels", qrels)):
        with (out / part / "test.jsonl").open("w", encoding="utf-8") as f:
            f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    return out
