"""What an expansion records about how it was made, and the refusal to mix settings.

``expansions.config`` holds, for every stage that has written outputs, the settings it ran with
(``settings.STAGE_SETTINGS``) and, for the judged stages, the judge's spec under ``judges``::

    {"judges": {"decompose": "heuristic", "verify": "heuristic", "audit": "heuristic"},
     "retriever": "bm25", "depth": 20, "scope": "benchmark", "rendering": "default",
     "audit_cap": null, "audit_safety_limit": 1000, "platform_rule": "feeds", "rrf_k": ...}

A stage's settings are recorded just before it runs (so an interrupted stage's outputs are never
left without them) and kept only while the stage has outputs; a later run that asks other
settings for a stage with outputs is refused (``check``), since its new rows would sit beside
rows made otherwise under one record (a judge is compared by its identity: a compat server moved
to another port is the same judge, and the run records the new spec). An offline verifier that
read with another embedding model than the bundled WordLlama records it, ``"judge_embedding":
"<model>"`` (absent: WordLlama, so records made before a user could choose one read as they were
made). ``--replace`` (``drop_outputs``) empties the expansion first. Keys other than these (an
import's ``imported_from``) are kept as they are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from toolex import expansions
from toolex.errors import InputError
from toolex.judges import judge_identity
from toolex.judges.embedding import DEFAULT_EMBEDDING
from toolex.pipeline.settings import JUDGED_STAGES, STAGE_SETTINGS, STAGES
from toolex.store import Store

Wanted = Mapping[str, Mapping[str, object]]  # stage -> {setting: value}; judged stages: {"judge"}
EMBEDDING_KEY = "judge_embedding"  # the verify stage's "embedding", as the config stores it


class SettingsConflict(InputError):
    """A run asked other settings than those an expansion's outputs were made with."""


def stored(store: Store, benchmark: str, expansion: str) -> dict[str, object]:
    """The settings recorded with the expansion's outputs (JSON), empty when none were."""
    return _parsed(_stored_text(store, benchmark, expansion))


def _stored_text(store: Store, benchmark: str, expansion: str) -> str | None:
    """The expansion's config as stored (JSON text); "" when the expansion has no row yet."""
    rows = store.rows(
        "stages/expansion/01_stored_config.sql", {"benchmark": benchmark, "expansion": expansion}
    )
    return rows[0]["config"] if rows else ""


def _parsed(text: str | None) -> dict[str, object]:
    if not text:
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {}


def recorded_judges(store: Store, benchmark: str, expansion: str) -> dict[str, str]:
    """stage -> the spec of the judge recorded for it (empty when none was recorded)."""
    judges = stored(store, benchmark, expansion).get("judges")
    return {str(k): str(v) for k, v in judges.items()} if isinstance(judges, dict) else {}


def outputs(store: Store, benchmark: str, expansion: str) -> dict[str, int]:
    """Rows written per stage (imports excluded): stage -> count."""
    row = store.rows(
        "stages/expansion/02_stage_outputs.sql", {"benchmark": benchmark, "expansion": expansion}
    )
    return {s: int(row[0][s]) for s in STAGES}


def of_stage(config: Mapping[str, object], stage: str) -> dict[str, object]:
    """The settings ``config`` records for ``stage`` (only the keys it holds)."""
    if stage in JUDGED_STAGES:
        judges = config.get("judges")
        if isinstance(judges, dict) and stage in judges:
            out = {"judge": judges[stage]}
            if stage == "verify" and str(judges[stage]).startswith("heuristic"):
                # recorded before an embedding could be chosen: WordLlama, the only one then
                out["embedding"] = config.get(EMBEDDING_KEY, DEFAULT_EMBEDDING)
            return out
        return {}
    return {k: config[k] for k in STAGE_SETTINGS[stage] if k in config}


def differences(
    config: Mapping[str, object], wanted: Wanted, made: Mapping[str, int], stages: Sequence[str]
) -> list[str]:
    """'stage.setting: stored -> asked' for each setting of a stage with outputs that differs."""
    out = []
    for stage in stages:
        if not made.get(stage):
            continue
        have = of_stage(config, stage)
        for key, value in wanted[stage].items():
            if key in have and not _same(key, have[key], value):
                out.append(f"{stage}.{key}: {_show(have[key])} -> {_show(value)}")
    return out


def _same(key: str, stored_value: object, asked: object) -> bool:
    """Whether a stored setting and the one asked are the same; judges by their identity (an
    OpenAI-compatible server on another port is the same judge: ``judge_identity``)."""
    if key == "judge" and isinstance(stored_value, str) and isinstance(asked, str):
        return judge_identity(stored_value) == judge_identity(asked)
    return bool(stored_value == asked)


def check(
    store: Store, benchmark: str, expansion: str, stages: Sequence[str], wanted: Wanted
) -> None:
    """Refuse a run whose settings differ from those the expansion's outputs were made with."""
    diff = differences(
        stored(store, benchmark, expansion), wanted, outputs(store, benchmark, expansion), stages
    )
    if diff:
        raise SettingsConflict(
            f"expansion {expansion!r} of {benchmark!r} was made with other settings "
            f"({'; '.join(diff)}; stored -> asked). Nothing was run. Use a new --expansion NAME "
            "to keep both, or --replace to drop this expansion's outputs and recompute them "
            "with the settings asked.",
            field="--expansion",
        )


def record(
    store: Store,
    benchmark: str,
    expansion: str,
    wanted: Wanted,
    ran: Sequence[str] = (),
) -> dict[str, object]:
    """Store the settings of every stage in ``ran`` (about to run, or that just did work) and
    of every stage with outputs; drop those of stages with neither. Returns the new config."""
    text = _stored_text(store, benchmark, expansion)
    config = _parsed(text)
    made = outputs(store, benchmark, expansion)
    given = config.get("judges")
    judges: dict[str, object] = dict(given) if isinstance(given, dict) else {}
    for stage in STAGES:
        keep = stage in ran or made.get(stage, 0) > 0
        values = wanted[stage] if stage in ran else of_stage(config, stage)
        if stage in JUDGED_STAGES:
            judges.pop(stage, None)
            if stage == "verify":
                config.pop(EMBEDDING_KEY, None)
            if keep and "judge" in values:
                judges[stage] = values["judge"]
                if values.get("embedding", DEFAULT_EMBEDDING) != DEFAULT_EMBEDDING:
                    config[EMBEDDING_KEY] = values["embedding"]
            continue
        for key in STAGE_SETTINGS[stage]:
            config.pop(key, None)
            if keep and key in values:
                config[key] = values[key]
    config.pop("judges", None)
    if judges:
        config["judges"] = {s: judges[s] for s in JUDGED_STAGES if s in judges}
    # The runner records each stage before and after it runs, mostly the same text twice: a
    # write of the text stored (record_config writes json.dumps of it) changes no byte and
    # costs a commit, two with its count. A text that differs, in any byte, is written, in a
    # transaction: one commit, its count inside it (alone, the count committed apart).
    if text != json.dumps(config):
        with store.transaction():
            expansions.record_config(store, benchmark, expansion, config)
    return config


def drop_outputs(store: Store, benchmark: str, expansion: str) -> None:
    """Delete every row of the expansion (imported ones too) and its recorded settings, in one
    transaction: the pipeline's own tables here, the expansion tables through their owner."""
    params = {"benchmark": benchmark, "expansion": expansion}
    with store.transaction():
        store.execute("stages/0_run/03_drop_stage_failures.sql", params)
        store.execute("stages/0_run/04_drop_dependencies.sql", params)
        store.execute("stages/0_run/10_drop_rule_rejections.sql", params)
        expansions.drop_combinations(store, benchmark, expansion)
        store.execute("stages/0_run/05_drop_verdicts.sql", params)
        expansions.drop_candidates(store, benchmark, expansion)
        expansions.drop_subqueries(store, benchmark, expansion)
        expansions.drop_expansion(store, benchmark, expansion)


def _show(value: object) -> str:
    return "none" if value is None else str(value)
