"""The two levels of the review protocol and what differs between them: what an item is, the
two labels a reviewer chooses between, the failure buckets of a negative label, and the SQL
files that read and write each level's tables. Everything else (roles, blindness,
adjudication, statistics) is the same protocol at both levels.

- combination: one accepted combination of a query (``review_samples``, ``review_labels``);
  labels valid / invalid.
- verdict: one (sub-query, reference, candidate) triple (``review_verdict_samples``,
  ``review_verdict_labels``); labels yes (the candidate is an equivalent of the reference for
  the sub-query) / no.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolex.errors import NotFoundError
from toolex.store import Store


@dataclass(frozen=True)
class Level:
    name: str
    labels: tuple[str, str]  # (positive, negative)
    buckets: dict[str, str]  # key -> what the reviewer reads
    short: tuple[str, ...]  # one word per bucket, for a one-line key hint
    key: tuple[str, ...]  # columns naming one item of a sample (after sample_id)
    sql: dict[str, str]  # what -> SQL file

    @property
    def positive(self) -> str:
        return self.labels[0]

    @property
    def negative(self) -> str:
        return self.labels[1]


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
    sql={
        "items": "review/20_items.sql",
        "save": "review/22_save_label.sql",
        "reviewers": "review/23_role_reviewers.sql",
        "in_sample": "review/13_item_in_sample.sql",
        "final": "review/30_final_labels.sql",
    },
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
    sql={
        "items": "review/50_verdict_items.sql",
        "save": "review/51_verdict_save_label.sql",
        "reviewers": "review/52_verdict_role_reviewers.sql",
        "in_sample": "review/53_verdict_item_in_sample.sql",
        "final": "review/60_verdict_final_labels.sql",
    },
)

LEVELS = {COMBINATION.name: COMBINATION, VERDICT.name: VERDICT}


def sample_level(store: Store, sample_id: str) -> Level:
    """The level of the stored sample ``sample_id``; NotFoundError (with close names) if none."""
    row = store.rows("review/14_sample_level.sql", {"sample_id": sample_id})[0]
    if row["combinations"]:
        return COMBINATION
    if row["verdicts"]:
        return VERDICT
    known = [r["sample_id"] for r in store.rows("review/15_samples.sql")]
    raise NotFoundError("review sample", sample_id, known, "draw one with `toolex review sample`")
