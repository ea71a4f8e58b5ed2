"""`toolex judges eval`: run judges on labelled verdicts and measure them against the labels.

Which labels: a file (``labels_file``), else a stored source (the only one when none is named),
else, when the store holds no labels, the shipped set (toolex/data/labels/pipeline-v2.jsonl, which
needs toolret and stabletoolbench loaded). Each judge's ``verify`` answers every labelled triple
(toolex.labels.tasks says where its sub-query comes from): LLM judges through the call ledger, so
their answers are cached, costed and resumable; the offline judges are built per benchmark (their
IDF is that benchmark's library, as in an expansion). An answer that failed is counted and left
out of the figures, never read as "no".

A run may take a seeded sample of the labels (``sample_labels``: the same seed, the same labels;
saved under its own source name, so it never replaces an evaluation of the whole set) and a call
budget (toolex.llm.budget), shared by the judges and the decomposer and spread over the labels'
queries; a run the budget stopped is not saved, and a re-run resumes from the call ledger.

The figures (toolex.labels.quality) come overall, per benchmark, per part and per rank band, with
the false accepts and false rejects; ``heuristic:prescreen`` is read as a screen (recall = share
of equivalents kept, discarded = share of candidates dropped). One row per (judge, stage, source,
benchmark or '*') goes to ``judge_evaluations``, replacing an earlier evaluation.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from toolex.errors import ToolexError
from toolex.judges import DEFAULT_JUDGE, make_judge, parse_spec
from toolex.judges.base import Judge, Stage, Verdict
from toolex.judges.operating_points import LABELS_FITTED_ON
from toolex.labels.records import SHIPPED, Label
from toolex.labels.report import Evaluation, PlanRow, Scored, judge_report, save_evaluation
from toolex.labels.spread import label_stratum, spread
from toolex.labels.table import checked_labels, require_source, stored_labels
from toolex.labels.tasks import LabelledTask, LabelTasks, label_tasks
from toolex.llm.budget import Budget
from toolex.progress import progress
from toolex.store import Store

# -- which labels ----------------------------------------------------------------------------


def chosen_labels(
    store: Store,
    *,
    source: str | None = None,
    labels_file: str | Path | None = None,
    benchmark: str | None = None,
) -> tuple[list[Label], str, list[str]]:
    """(labels, source name, notes): from a file, a stored source, else the shipped set."""
    notes: list[str] = []
    if labels_file is not None and source is not None:
        raise ToolexError("give --source (stored labels) or --labels FILE, not both")
    if labels_file is None:
        stored = require_source(store, source)
        if stored is not None:
            labels = stored_labels(store, stored, benchmark)
            return _only(labels, benchmark, stored), stored, notes
        labels_file = SHIPPED
        notes.append(f"the store holds no labels: using the shipped set {SHIPPED.name}")
    labels, read_notes = checked_labels(store, labels_file)
    notes += read_notes
    names = sorted({label.source for label in labels})
    name = names[0] if len(names) == 1 else Path(labels_file).name
    if benchmark is not None:
        labels = [label for label in labels if label.benchmark == benchmark]
    return _only(labels, benchmark, name), name, notes


def sample_labels(
    labels: Sequence[Label], source: str, limit: int | None, seed: int
) -> tuple[list[Label], str, list[str]]:
    """(a seeded sample of ``limit`` labels in their stored order, its source name, notes);
    all of them, unchanged, when ``limit`` is None or covers them. The sample is spread over
    the labels' benchmarks and parts (toolex.labels.spread): each in turn, as far as it has
    labels, so 40 labels of two benchmarks are 20 of each, not 40 of the first."""
    if limit is None or limit >= len(labels):
        return list(labels), source, []
    order = spread(range(len(labels)), lambda i: _stratum_of(labels[i]), seed)
    chosen = sorted(order[:limit])
    name = f"{source} (sample of {limit}, seed {seed})"
    per = Counter("/".join(filter(None, _stratum_of(labels[i]))) for i in chosen)
    shown = ", ".join(f"{key} {n}" for key, n in sorted(per.items()))
    note = (
        f"a seeded sample: {limit} of {len(labels)} labels, spread over benchmarks and parts "
        f"({shown}; seed {seed}: the same labels again)"
    )
    return [labels[i] for i in chosen], name, [note]


def _stratum_of(label: Label) -> tuple[str, ...]:
    return label_stratum(label.benchmark, label.stratum)


def _only(labels: list[Label], benchmark: str | None, source: str) -> list[Label]:
    if not labels:
        raise ToolexError(
            f"label source {source!r} has no labels"
            + (f" of benchmark {benchmark!r}" if benchmark else "")
        )
    return labels


# What the judges are built from: a ToolexConfig (its [judges] specs and its llm part), an
# LLMConfig, or None; read by attribute here and handed on to toolex.judges.make_judge, which
# sits below the config's own package and so cannot name its type either.
JudgeSettings: TypeAlias = object


# -- judges ----------------------------------------------------------------------------------


def build_judge(
    spec: str,
    store: Store,
    config: JudgeSettings = None,
    benchmark: str | None = None,
    *,
    pricing: bool = False,
) -> Judge:
    """The judge ``spec``: an offline judge takes its IDF from ``benchmark``'s library; an LLM
    judge takes its call settings from ``config``. With ``pricing`` (a dry run, which prices
    prompts and reads the ledger and calls nothing) an LLM judge is built even without an API key,
    on a placeholder the dry run never sends."""
    provider = parse_spec(spec)[0]
    if provider == "heuristic":
        return make_judge(spec, store, benchmark=benchmark)
    if not pricing:
        return make_judge(spec, store, config)
    with _placeholder_key(provider):
        return make_judge(spec, store, config)


@contextlib.contextmanager
def _placeholder_key(provider: str) -> Iterator[None]:
    """While the block runs, a missing key of ``provider`` is a placeholder: the real client is
    built (so the ledger identity, endpoint included, is exactly a real run's), and no call is
    made with it."""
    from toolex.llm.clients import KEY_ENV

    env = KEY_ENV.get(provider)
    if env is None or os.environ.get(env):
        yield
        return
    os.environ[env] = "toolex-dry-run-makes-no-calls"
    try:
        yield
    finally:
        os.environ.pop(env, None)


def decomposer_spec(config: JudgeSettings = None) -> str:
    """The decompose judge of the config file's [judges], else the default (offline) judge."""
    spec: str = (getattr(config, "judges", None) or {}).get("decompose", DEFAULT_JUDGE)
    return spec


def _decomposers(
    store: Store,
    spec: str,
    config: JudgeSettings,
    pricing: bool = False,
    budget: Budget | None = None,
) -> Callable[[str], Judge]:
    built: dict[str | None, Judge] = {}
    offline = parse_spec(spec)[0] == "heuristic"

    def get(benchmark: str) -> Judge:
        key = benchmark if offline else None
        if key not in built:
            built[key] = _budgeted(
                build_judge(spec, store, config, benchmark, pricing=pricing), budget
            )
        return built[key]

    return get


def _budgeted(judge: Judge, budget: Budget | None) -> Judge:
    """``judge``, counting its calls against ``budget`` when it makes calls."""
    if budget is not None and judge.client is not None:  # only a judge with a client calls
        judge.budget = budget
    return judge


# -- the verify stage ------------------------------------------------------------------------


def evaluate_verify(
    store: Store,
    specs: Sequence[str],
    labels: Sequence[Label],
    source: str,
    *,
    expansion: str = "default",
    subqueries: str = "decomposer",
    config: JudgeSettings = None,
    decompose_with: str | None = None,
    save: bool = True,
    budget: Budget | None = None,
    seed: int = 0,
) -> Evaluation:
    """Every judge of ``specs`` on the labelled triples; saved to judge_evaluations unless
    ``budget`` stopped the run (its figures then cover the labels judged before it did). Under
    a budget the triples go out spread over benchmarks and parts in ``seed``'s order
    (toolex.labels.spread), so that a run stopped early covers each of them."""
    decompose_with = decompose_with or decomposer_spec(config)
    lt = label_tasks(
        store,
        labels,
        expansion=expansion,
        subqueries=subqueries,
        decomposer=_decomposers(store, decompose_with, config, budget=budget),
        spread_seed=seed if budget is not None else None,
    )
    tasks = lt.tasks
    if budget is not None:
        tasks = spread(tasks, lambda t: (t.strata["benchmark"], t.strata["part"]), seed)
    notes = _task_notes(lt, decompose_with) + _verify_notes(source, specs, labels)
    evaluation = Evaluation(source, "verify", len(labels), [], notes)
    for spec in specs:
        judges = [
            (bench, _budgeted(judge, budget))
            for bench, judge in _verify_judges(
                store, spec, config, sorted({t.benchmark for t in lt.tasks})
            )
        ]
        scored, failed, calls = _judged(spec, judges, tasks, lt.tasks)
        screen = any(j.spec == "heuristic:prescreen" for _, j in judges)
        report = judge_report(spec, "verify", scored, failed, screen=screen)
        if any(j.makes_calls for _, j in judges):
            report.calls = calls
        evaluation.reports.append(report)
    if budget is not None and budget.exhausted:
        judged = {r.overall.confusion.n + len(r.failed) for r in evaluation.reports}
        evaluation.notes.append(
            f"stopped: the call budget ({budget.describe()}) was spent; the figures cover "
            f"{' / '.join(map(str, sorted(judged)))} of {len(lt.tasks)} labelled verdicts and "
            "are not saved; a re-run resumes from the call ledger"
        )
    elif save:
        save_evaluation(store, evaluation)
    return evaluation


def _verify_notes(source: str, specs: Sequence[str], labels: Sequence[Label]) -> list[str]:
    """What the figures of ``specs`` on these labels cannot say by themselves."""
    notes = []
    if source in LABELS_FITTED_ON and any(parse_spec(s)[0] == "heuristic" for s in specs):
        notes.append(
            f"in sample: the offline judge's cut was chosen on {source!r}; its figures held "
            "out by library are in toolex/data/labels/held_out.json "
            "(python benchmarks/fit_offline_judge.py --db STORE)"
        )
    if any(label.stratum and label.stratum.get("population") for label in labels):
        notes.append(
            "these labels were drawn by stratum (one third per part of a review sample): the "
            "figures describe the labelled sample, not the candidate population; `toolex review "
            "stats` of the sample weighs each stratum by its population"
        )
    return notes


def _judged(
    spec: str,
    judges: list[tuple[str | None, Judge]],
    tasks: Sequence[LabelledTask],
    every: Sequence[LabelledTask],
) -> tuple[list[Scored], list[tuple[str, str]], dict[str, float]]:
    """The verdicts of ``spec``'s judges (one per benchmark, or one for all) on ``tasks`` in
    their order: (scored, failed, calls made / answered from the ledger / cost)."""
    by_key = {t.task.key: t for t in every}
    scored: list[Scored] = []
    failed: list[tuple[str, str]] = []
    calls = {"made": 0, "cached": 0, "cost_usd": 0.0}
    with progress(f"judges eval {spec}", len(tasks), unit="verdicts") as advance:
        for bench, judge in judges:
            group = [t.task for t in tasks if bench is None or t.benchmark == bench]
            for outcome in judge.verify(group):
                advance(1)
                item = by_key[outcome.key]
                if outcome.extra.get("cached"):
                    calls["cached"] += 1
                if not outcome.ok or not isinstance(outcome.value, Verdict):
                    failed.append((outcome.key, outcome.error or "no verdict"))
                    continue
                scored.append(_scored_verdict(item, outcome.value))
            spend = judge.spend
            if spend is not None:
                calls["made"] += spend.attempts
                calls["cost_usd"] += spend.cost_usd
    return scored, failed, calls


def plan_verify(
    store: Store,
    specs: Sequence[str],
    labels: Sequence[Label],
    *,
    expansion: str = "default",
    subqueries: str = "decomposer",
    config: JudgeSettings = None,
    decompose_with: str | None = None,
) -> tuple[list[PlanRow], list[str]]:
    """A dry run: per judge (and the decomposer, when it would be asked) the calls the evaluation
    would make, the answers the ledger holds and the estimated cost. Nothing is called or
    written, and no API key is needed."""
    decompose_with = decompose_with or decomposer_spec(config)
    decomposers = _decomposers(store, decompose_with, config, pricing=True)
    offline = not decomposers(labels[0].benchmark).makes_calls
    lt = label_tasks(
        store,
        labels,
        expansion=expansion,
        subqueries=subqueries,
        decomposer=decomposers,
        call_decomposer=offline,
    )
    rows = []
    for bench in sorted({b for b, _ in lt.decompose}):
        tasks = [t for b, t in lt.decompose if b == bench]
        rows.append(plan_row("decompose", decomposers(bench), tasks))
    verify_tasks = [t.task for t in lt.tasks]
    for spec in specs:
        judge = build_judge(spec, store, config, None, pricing=True)
        rows.append(plan_row("verify", judge, verify_tasks))
    return rows, _task_notes(lt, decompose_with)


def plan_row(stage: Stage, judge: Judge, tasks: Sequence[Any]) -> PlanRow:
    """One dry-run row: the judge's estimate of ``tasks`` (calls, ledger answers, cost)."""
    est = judge.estimate(stage, tasks)
    cost = None if est.cost_usd is None else round(est.cost_usd, 6)
    return PlanRow(judge.spec, stage, len(tasks), est.calls, est.cached, cost)


def _verify_judges(
    store: Store, spec: str, config: JudgeSettings, benchmarks: list[str]
) -> list[tuple[str | None, Judge]]:
    """One offline judge per benchmark, or one LLM judge for all (None: every benchmark)."""
    if parse_spec(spec)[0] == "heuristic":
        return [(b, build_judge(spec, store, config, b)) for b in benchmarks]
    return [(None, build_judge(spec, store, config))]


def _scored_verdict(item: Any, verdict: Verdict) -> Scored:
    t = item.task
    return Scored(
        key=t.key,
        label=item.label == "yes",
        judged=verdict.accepted,
        strata=item.strata,
        reason=verdict.reason,
        confidence=verdict.confidence,
        note=item.note,
        detail={
            "benchmark": item.benchmark,
            "query_id": item.query_id,
            "slot": item.slot,
            "subquery": t.subquery,
            "reference": t.reference.item_id,
            "candidate": t.candidate.item_id,
        },
    )


def _task_notes(lt: LabelTasks, decompose_with: str) -> list[str]:
    notes = []
    origins = lt.origins()
    said = {
        "label": "from the labels",
        "expansion": "from the expansion",
        "decomposed": f"decomposed by {decompose_with}",
    }
    shown = ", ".join(f"{n} {said[o]}" for o, n in sorted(origins.items()))
    if shown:
        notes.append(f"sub-queries: {shown}")
    if lt.dropped:
        notes.append(f"{lt.dropped} label(s) left out: their query or items are no longer stored")
    if lt.unresolved:
        key, why = lt.unresolved[0]
        notes.append(
            f"{len(lt.unresolved)} label(s) left out without a sub-query (e.g. {key}: {why})"
        )
    return notes
