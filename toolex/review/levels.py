"""The two levels of the review protocol and what differs between them: what an item is (the
key columns naming it), the two labels a reviewer chooses between, the failure buckets of a
negative label, the tables holding the level's samples and labels, the parts its samples are
drawn over, and the SQL files that truly differ (what a reviewer sees of an item; the INSERT of
a label, whose target table DuckDB cannot take as a bound value). Everything else (roles,
blindness, adjudication, the final-label rule, allocation, statistics) is one protocol, in SQL
files that read the level's tables by name (``query_table($samples)``, ``query_table($labels)``,
bound from :attr:`Level.tables`: a value, never SQL text).

- combination: one accepted combination of a query (``review_samples``, ``review_labels``);
  labels valid / invalid; strata category x number of tools, allocated proportionally.
- verdict: one (sub-query, reference, candidate) triple (``review_verdict_samples``,
  ``review_verdict_labels``); labels yes (the candidate is an equivalent of the reference for
  the sub-query) / no; strata part x category x rank band, the size split evenly over the parts
  (the judge's accepted and rejected verdicts, and unjudged candidates); its final labels are
  published to ``labels`` (toolex.review.publish).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from toolex.errors import NotFoundError
from toolex.review import queries
from toolex.store import Store


class Tables(NamedTuple):
    """A level's tables, bound by name into the protocol's SQL (``$samples``, ``$labels``)."""

    samples: str  # the sampled items, one row each, with how they were drawn
    labels: str  # one row per (item, role): the protocol's label columns after the item's key


@dataclass(frozen=True)
class Level:
    name: str
    labels: tuple[str, str]  # (positive, negative)
    buckets: dict[str, str]  # key -> what the reviewer reads
    short: tuple[str, ...]  # one word per bucket, for a one-line key hint
    key: tuple[str, ...]  # columns naming one item of a sample (after sample_id)
    tables: Tables
    parts: tuple[str, ...]  # the size is split evenly over these (none: one population)
    publishes: bool  # its final labels are verdict labels, written to `labels` too
    sql: dict[str, str]  # what differs -> SQL file: "items" (what a reviewer sees), "save"

    @property
    def positive(self) -> str:
        return self.labels[0]

    @property
    def negative(self) -> str:
        return self.labels[1]

    def key_of(self, row: Mapping[str, Any]) -> tuple[object, ...]:
        """The values of the key columns of ``row`` (an item, a label, a sheet row)."""
        return tuple(row[k] for k in self.key)


COMBINATION = Level(
    name="combination",
    labels=("valid", "invalid"),
    # failure buckets of an invalid combination (the taxonomy)
    buckets={
        "decomposition_ambiguity": "decomposition ambiguity",
        "near_synonym": "near-synonym but not substitutable",
        "incomplete_coverage": "incomplete coverage of the query",
        "platform_mismatch": "cross-platform dependency mismatch",
    },
    short=("ambiguity", "near-synonym", "coverage", "platform"),
    key=("benchmark", "expansion", "query_id", "combo_id"),
    tables=Tables("review_samples", "review_labels"),
    parts=(),
    publishes=False,
    sql={"items": "review/20_combination_items.sql", "save": "review/22_save_label.sql"},
)

VERDICT = Level(
    name="verdict",
    labels=("yes", "no"),
    # why a candidate is not an equivalent of the reference for the sub-query
    buckets={
        "different_operation": "different operation (another verb: drop a database, not a table)",
        "different_entity": "different entity (same verb, another object: C# not C)",
        "missing_input": "needs an input the request does not give (an id to look up first)",
        "partial_coverage": "covers only part of what the sub-query asks",
        "named_source": "the request names a source or provider this tool is not",
        "thin_documentation": "documentation too thin to tell (under uncertainty, no)",
    },
    short=("operation", "entity", "input", "coverage", "source", "thin"),
    key=("benchmark", "expansion", "query_id", "slot", "item_id"),
    tables=Tables("review_verdict_samples", "review_verdict_labels"),
    # the judge's verdict at draw time, or none (toolex.review.sample)
    parts=("accepted", "rejected", "unjudged"),
    publishes=True,
    sql={"items": "review/50_verdict_items.sql", "save": "review/51_verdict_save_label.sql"},
)

LEVELS = {COMBINATION.name: COMBINATION, VERDICT.name: VERDICT}


def sample_level(store: Store, sample_id: str) -> Level:
    """The level of the stored sample ``sample_id``; NotFoundError (with close names) if none."""
    use = queries.sample_use(store, sample_id)
    if use.combinations:
        return COMBINATION
    if use.verdicts:
        return VERDICT
    known = [r.sample_id for r in queries.samples(store)]
    raise NotFoundError("review sample", sample_id, known, "draw one with `toolex review sample`")
