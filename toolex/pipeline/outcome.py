"""What an expansion came to, and whether it is degenerate: the end of `toolex expand`.

The outcome counts the store (sql/stages/expansion/04_outcome.sql), not one run, so a re-run that
finds nothing left to do reports the same numbers instead of a row of zeros. An expansion is
degenerate, and `expand` says so loudly, when

* the candidate retriever missed most references from their own candidate lists
  (``MISSED_SHARE``): the verifier can only accept from those lists, so the sub-queries or the
  item texts carry little of what the tools do;
* many sub-queries read the same text (``SAME_TEXT_SHARE``): the decomposer saw no name,
  description or parameters to write from (e.g. items whose fields were not parsed);
* most ground-truth tools have no name of their own (``UNNAMED_SHARE``): their fields were
  likely not parsed, and a verifier cannot tell what an unnamed, undescribed tool does;
* candidates were judged and none was accepted: nothing can be expanded.

Each warning names the likely cause and what to look at.

"valid" counts every valid combination, the original included, as `toolex stats` (valid_combos)
and `toolex info` count it; "alternatives" are the valid ones other than the original. (The
outcome once said "valid" for the alternatives alone, while its own stage rows and `stats`
counted the originals too: three numbers for one word.)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import NamedTuple

from toolex.pipeline.settings import STAGES
from toolex.store import Store

MISSED_SHARE = 0.5  # references missing from their own candidate lists, of sub-queries with one
SAME_TEXT_SHARE = 0.2  # sub-queries that read the most repeated text, of all sub-queries
SAME_TEXT_MIN = 5  # ... and at least this many (three identical sub-queries are no pattern)
UNNAMED_SHARE = 0.5  # ground-truth tools without a name, of those the sub-queries are for


@dataclass(frozen=True)
class ExpansionOutcome:
    queries: int
    decomposed: int
    subqueries: int
    with_candidates: int
    refs_missed: int
    candidates: int
    accepted: int
    judged: int  # non-reference candidates with a verdict
    equivalents_per_subquery: float
    valid: int  # every valid combination, the original included
    alternatives: int  # valid combinations other than the original
    with_alternative: int
    failed_queries: int
    top_text: str | None
    top_text_n: int
    reference_tools: int
    unnamed_references: int
    undescribed_references: int  # of the unnamed, those with no description either

    def row(self) -> dict[str, int | float]:
        """The outcome as one summary row: what a user asks of an expansion."""
        return {
            "queries": self.queries,
            "decomposed": self.decomposed,
            "subqueries": self.subqueries,
            "equivalents_per_subquery": self.equivalents_per_subquery,
            "valid_combinations": self.valid,
            "alternatives": self.alternatives,
            "queries_with_alternative": self.with_alternative,
            "failed_queries": self.failed_queries,
        }

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def expansion_outcome(store: Store, benchmark: str, expansion: str) -> ExpansionOutcome:
    row = store.rows(
        "stages/expansion/04_outcome.sql", {"benchmark": benchmark, "expansion": expansion}
    )[0]
    row["equivalents_per_subquery"] = float(row["equivalents_per_subquery"] or 0.0)
    return ExpansionOutcome(**row)


def degenerate_warnings(o: ExpansionOutcome) -> list[str]:
    """One sentence per sign that the expansion is degenerate, with the likely cause."""
    out = []
    if o.with_candidates and o.refs_missed / o.with_candidates > MISSED_SHARE:
        out.append(
            f"the reference was missing from its own candidate list for {o.refs_missed} of "
            f"{o.with_candidates} sub-queries ({100 * o.refs_missed / o.with_candidates:.0f}%): "
            "the sub-queries or the item texts say little of what the tools do (items without "
            'name, description or parameters? look at `toolex sql "FROM items LIMIT 5"`), or '
            "the candidate retriever suits this library badly (try --retriever)"
        )
    if (
        o.subqueries
        and o.top_text_n >= SAME_TEXT_MIN
        and o.top_text_n / o.subqueries > (SAME_TEXT_SHARE)
    ):
        out.append(
            f"{o.top_text_n} of {o.subqueries} sub-queries read the same text "
            f"({o.top_text!r}): the decomposer found nothing in the tools' documentation to "
            "write from (items loaded without name, description or parameters?)"
        )
    if o.reference_tools and o.unnamed_references / o.reference_tools > UNNAMED_SHARE:
        out.append(
            f"{o.unnamed_references} of {o.reference_tools} ground-truth tools have no name of "
            f'their own{_unnamed_cause(o)} (look at `toolex sql "FROM items LIMIT 5"`)'
        )
    if o.judged and o.accepted == 0:  # before verify has run, nothing was refused yet
        of = f" (of {o.candidates})" if o.judged != o.candidates else ""
        out.append(
            f"none of {o.judged} judged candidates{of} was accepted as an equivalent: nothing "
            "could be expanded (uninformative sub-queries or docs, or a judge too strict for "
            "this library)"
        )
    return out


def _unnamed_cause(o: ExpansionOutcome) -> str:
    """What the unnamed tools lack, as far as the store shows it: a name alone (the load's note
    counted them), or a description too (fields likely not parsed)."""
    if not o.undescribed_references:
        return (
            ", though each has a description: the judges read what they do but not what they "
            "are called (the load's note counted them; give the items a name field, or `load "
            "plain --map items.name=SOURCE`)"
        )
    return (
        f", and {o.undescribed_references} of those no description either: items loaded "
        "without name, description or parameters? (fields not parsed: `load plain --map`)"
    )


class FailedQuery(NamedTuple):
    """A query's failed tasks of one stage: how many, the first one's error, and what the
    failure leaves out (FAILED_COLUMNS are these fields)."""

    query_id: str
    stage: str
    failed: int
    reason: str
    effect: str


FAILED_COLUMNS = list(FailedQuery._fields)  # the header of a list with no rows


def failed_queries(store: Store, benchmark: str, expansion: str) -> list[FailedQuery]:
    """Every query with a failed task, per stage (sql/stages/expansion/05)."""
    return store.typed(
        "stages/expansion/05_failed_queries.sql",
        FailedQuery,
        {"benchmark": benchmark, "expansion": expansion},
    )


# What each stage's output is called in the message that asks for it.
OUTPUTS = {
    "decompose": "sub-queries",
    "candidates": "candidates",
    "verify": "verdicts",
    "assemble": "combinations",
}


def missing_stage(
    store: Store, benchmark: str, expansion: str, query_ids: list[str], stages: tuple[str, ...]
) -> str | None:
    """Why ``stages`` would do nothing, or None: the first of them needs the output of the
    stage before it, which is not among them and has run for none of the queries (a partial
    output is a run to resume, not a mistake). `expand --stage candidates` on a fresh expansion
    did 0 tasks and said nothing."""
    chosen = [s for s in STAGES if s in stages]
    if not chosen or not query_ids or STAGES.index(chosen[0]) == 0:
        return None
    before = STAGES[STAGES.index(chosen[0]) - 1]
    held = store.rows(
        "stages/expansion/09_stage_inputs.sql",
        {"benchmark": benchmark, "expansion": expansion, "query_ids": query_ids},
    )[0]
    if held[before]:
        return None
    group = "verify" if before == "candidates" else before  # `--stage verify` retrieves too
    return (
        f"expansion {expansion!r} of {benchmark!r} has no {OUTPUTS[before]} yet for these "
        f"{len(query_ids)} queries, so --stage {chosen[0]} has nothing to work on: run "
        f"`toolex expand --stage {group}` first (or leave out --stage: every stage in order)"
    )
