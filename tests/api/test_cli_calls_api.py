"""One code path: the commands that load, import runs, expand and score call toolex.api, and
the core functions the API wraps are no longer called from the CLI directly."""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "toolex" / "cli"

# command module -> the toolex.api names it must call
CALLS = {
    "eval.py": {"toolex.api.evaluate": {"score", "metric_plan"}},
    "load.py": {
        "toolex.api.load": {
            "load_toolret",
            "load_hub",
            "load_stabletoolbench",
            "load_beir",
            "load_docs",
        }
    },
    "load_plain.py": {"toolex.api.load": {"load_plain"}},
    "load_skillret.py": {"toolex.api.load": {"load_skillret"}},
    "runs.py": {"toolex.api.runs": {"import_run", "delete_run"}},
    "expand.py": {"toolex.api.expand": {"expand"}},
    "expand_options.py": {"toolex.api.expand": {"expand_settings"}},
    "retrieve.py": {"toolex.api.retrieve": {"retrieve"}},
    "stats.py": {"toolex.api.reports": {"trust"}},
    "export.py": {"toolex.api.reports": {"export"}},
}
# What the CLI called before the API: now only the API calls these.
GONE = {
    ("toolex.loaders", "load_toolret"),
    ("toolex.loaders", "load_stabletoolbench"),
    ("toolex.loaders", "load_beir"),
    ("toolex.loaders", "load_plain"),
    ("toolex.loaders", "load_skillret"),
    ("toolex.loaders", "load_docs"),
    ("toolex.loaders.hub", "load_toolret_hub"),
    ("toolex.runs", "import_run"),
    ("toolex.runs", "delete_run"),
    ("toolex.pipeline.runner", "run_expansion"),
    ("toolex.pipeline.config", "expand_settings"),
    ("toolex.metrics.engine", "summary"),
    ("toolex.metrics.engine", "per_query_rows"),
    ("toolex.reports.main_table", "with_group_mean"),
    ("toolex.reports.trust", "trust_of_runs"),
    ("toolex.retrieval.runs", "retrieve_run"),
    ("toolex.exports", "export_qrels"),
    ("toolex.exports", "export_trec_qrels"),
    ("toolex.exports", "export_trec_run"),
    ("toolex.exports", "export_toolret_jsonl"),
}


def _imports(path: Path) -> set[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        (node.module or "", alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_commands_import_the_api() -> None:
    for name, wanted in CALLS.items():
        found = _imports(CLI / name)
        for module, names in wanted.items():
            assert {(module, n) for n in names} <= found, (name, module, names)


def test_no_command_calls_what_the_api_wraps() -> None:
    for path in sorted(CLI.glob("*.py")):
        if path.name == "demo.py":  # the demo's own module, outside this change
            continue
        assert not (_imports(path) & GONE), (path.name, _imports(path) & GONE)
