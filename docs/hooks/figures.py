"""MkDocs hook: figures come from the benchmark records, never from the page's text.

``{{ figures }}`` on a page becomes every record of docs/figures/ (written by
benchmarks/figures.py) and the judges' records (toolex/data/labels/held_out.json, written by
benchmarks/fit_offline_judge.py --write; fresh_checks.json, written with the labelled fresh
rounds), each with its date, commit, machine and load. ``{{ figures NAME }}`` becomes one
record (docs/figures/NAME.json, or ``judges``) where a page discusses it. A name with no record
is a warning, which ``mkdocs build --strict`` turns into a failed build.
"""

from __future__ import annotations

import json
import logging
import posixpath
import re
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "docs" / "figures"
LABELS = ROOT / "toolex" / "data" / "labels"
FIGURES_PAGE = "figures.md"
MARKER = re.compile(r"\{\{\s*figures(?:\s+([\w.-]+))?\s*\}\}")
log = logging.getLogger("mkdocs.hooks.figures")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if "{{" not in markdown:
        return markdown
    here = posixpath.dirname(page.file.src_uri)
    link = posixpath.relpath(FIGURES_PAGE, here or ".")

    def expand(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return every_record()
        text = one_record(name, heading=False)
        if text is None:
            log.warning("%s: no record named %r in docs/figures/", page.file.src_uri, name)
            return ""
        return text + f"\n\n(All figures, with how each was measured: [figures]({link}).)\n"

    return MARKER.sub(expand, markdown)


def every_record() -> str:
    parts = []
    for path in sorted(RECORDS.glob("*.json")):
        parts.append(one_record(path.stem, heading=True) or "")
    parts.append(one_record("judges", heading=True) or "")
    return "\n\n".join(parts)


def one_record(name: str, heading: bool) -> str | None:
    if name == "judges":
        return judges(heading)
    path = RECORDS / f"{name}.json"
    if not path.is_file():
        return None
    entry = json.loads(path.read_text(encoding="utf-8"))
    lines = [f"## {name}" + " {#" + name + "}", ""] if heading else []
    lines.append(provenance(entry))
    if entry.get("data"):
        lines.append(f"Measured on: {entry['data']}.")
    if entry.get("notes"):
        lines.append(entry["notes"])
    scalars = {k: v for k, v in entry["figures"].items() if not isinstance(v, list)}
    for title, value in entry["figures"].items():
        if isinstance(value, list):
            lines += ["", f"**{title}**", "", *table(value)]
    if scalars:
        lines += ["", *table([{"figure": k, "value": v} for k, v in scalars.items()])]
    return "\n".join(lines)


def provenance(entry: dict[str, Any]) -> str:
    machine = entry["machine"]
    load = entry["load"]
    seen = [x for x in (load.get("start"), load.get("end")) if x]
    loads = " then ".join(f"{x[0]:.1f}" for x in seen)
    return (
        f"*{entry['date']}, commit `{entry['commit']}`, {machine['cores']} cores, "
        f"{machine['ram_gb']} GB RAM, load average {loads}:* `{entry['command']}`."
    )


def table(rows: list[dict[str, Any]]) -> list[str]:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    out = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        out.append("| " + " | ".join(cell(row.get(c)) for c in columns) + " |")
    return out


def cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):  # an interval
        return "[" + ", ".join(cell(v) for v in value) + "]"
    return str(value).replace("|", "\\|")


def judges(heading: bool) -> str:
    """The offline verifier held out (leave one library out) and on the fresh blind rounds."""
    held = json.loads((LABELS / "held_out.json").read_text(encoding="utf-8"))
    lines = ["## judges {#judges}", ""] if heading else []
    lines.append(
        "The offline verifier's figures, from `toolex/data/labels/held_out.json` (`python "
        "benchmarks/fit_offline_judge.py --db STORE --write`, one entry per embedding model: "
        "each labelled library judged by the cut chosen on the others) and "
        "`toolex/data/labels/fresh_checks.json` (the fresh blind rounds, labelled after the "
        "rules were frozen). Precision with its 95% Wilson interval."
    )
    for model, entry in sorted(held.items()):
        measured = entry.get("measured", {})
        lines += [
            "",
            f"**held out, embedding `{model}`** "
            f"*({measured.get('date', '?')}, commit `{measured.get('commit', '?')}`, load "
            f"{measured.get('load', '?')}; labels {entry.get('label_set', '?')}, rules "
            f"{entry.get('rules', '?')})*",
            "",
        ]
        rows = []
        groups = {
            **{f"library: {k}": v for k, v in sorted(entry.get("libraries", {}).items())},
            **{f"benchmark: {k}": v for k, v in sorted(entry.get("benchmarks", {}).items())},
            "**pooled**": entry["all"],
        }
        for library, figs in groups.items():
            strict = figs.get("heuristic", {})
            screen = figs.get("heuristic:prescreen", {})
            rows.append(
                {
                    "held out": library,
                    "labels (yes)": f"{strict.get('labels', '?')} ({strict.get('yes', '?')})",
                    "accepted labels": strict.get("accepted_labels"),
                    "precision": strict.get("precision"),
                    "interval": strict.get("precision_ci"),
                    "recall": strict.get("recall"),
                    "pre-screen keeps": screen.get("recall"),
                    "pre-screen discards": screen.get("discarded"),
                }
            )
        lines += table(rows)
    fresh_path = LABELS / "fresh_checks.json"
    if fresh_path.is_file():
        fresh = json.loads(fresh_path.read_text(encoding="utf-8"))
        date, commit = last_commit(fresh_path)
        for model, benchmarks in sorted(fresh.items()):
            lines += [
                "",
                f"**fresh blind rounds, embedding `{model}`** *(the file as committed "
                f"{date}, commit `{commit}`)*",
                "",
            ]
            lines += table(
                [
                    {
                        "benchmark": name,
                        "round": figs.get("round"),
                        "accepted labelled": figs.get("accepted"),
                        "precision": figs.get("precision"),
                        "interval": figs.get("precision_ci"),
                    }
                    for name, figs in sorted(benchmarks.items())
                ]
            )
    return "\n".join(lines)


def last_commit(path: Path) -> tuple[str, str]:
    """When a record without its own date was written: the commit that last changed it."""
    done = subprocess.run(
        ["git", "log", "-1", "--format=%cs %h", "--", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    words = done.stdout.split()
    return (words[0], words[1]) if len(words) == 2 else ("not committed", "none")
