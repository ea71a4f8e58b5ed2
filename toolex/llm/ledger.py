"""The LLM call ledger (table ``llm_calls``): one row per attempt, failures included.

Identical calls are served from it: the input hash covers judge (provider and model, and the
endpoint of a hosted provider's client, see :func:`call_identity`), model, prompt version and the
exact rendered prompt, and the newest ``ok`` row for a hash is the answer. Failures (``error``,
``malformed``) are history, never answers; ``pending`` rows are batch requests awaiting results.

The ledger writes through its own ``Store.cursor()`` (a separate connection to the same database),
so its rows commit on their own: a stage that wraps its table writes in a transaction and is killed
still leaves the finished calls in the ledger, and the re-run does not pay for them again. The
ledger is used from one thread only (the executor funnels worker results to the caller thread).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, Protocol

import pyarrow as pa

from toolex.llm import queries
from toolex.llm.keys import redact_secrets, redact_url
from toolex.store import Store

_COLUMNS = (
    "call_id",
    "stage",
    "judge",
    "model",
    "prompt_version",
    "input_hash",
    "task_key",
    "status",
    "error",
    "response",
    "parsed",
    "prompt_tokens",
    "completion_tokens",
    "latency_ms",
    "cost_usd",
    "attempt",
    "batch_id",
    "created_at",
)

_ARROW_SCHEMA = pa.schema(
    [(name, pa.string()) for name in _COLUMNS[:11]]
    + [
        ("prompt_tokens", pa.int32()),
        ("completion_tokens", pa.int32()),
        ("latency_ms", pa.float64()),
        ("cost_usd", pa.float64()),
        ("attempt", pa.int32()),
        ("batch_id", pa.string()),
        ("created_at", pa.timestamp("us")),
    ]
)


# The columns holding text a server sent: redacted before they are stored.
_SERVER_TEXT = ("error", "response", "parsed")


def input_hash(judge: str, model: str | None, prompt_version: str, system: str, user: str) -> str:
    """sha256 over the parts, each length-prefixed so no two different inputs collide."""
    digest = hashlib.sha256()
    for part in (judge, model or "", prompt_version, system, user):
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


# The hosted providers' public endpoints: a judge calling one is named provider:model alone, as
# before endpoints joined the identity, so ledgers written then keep serving their answers.
class Named(Protocol):
    """What names a judge's client: its provider and model (a ChatClient, or a test double)."""

    provider: str
    model: str


PUBLIC_ENDPOINTS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}


def endpoint_of(client: Named) -> str | None:
    """The base URL ``client`` sends its requests to (its SDK's), credentials redacted and
    without a trailing slash; None for a provider's public endpoint or a client without an SDK
    (test doubles)."""
    url = getattr(getattr(client, "sdk_client", None), "base_url", None)
    if url is None:
        return None
    text = redact_url(str(url)).rstrip("/")
    return None if text == PUBLIC_ENDPOINTS.get(getattr(client, "provider", "")) else text


def call_identity(client: Named) -> str:
    """The judge part of an input hash: ``provider:model``, plus ``@endpoint`` when a hosted
    provider's client calls anything but its public endpoint (a proxy or another vendor behind
    the same API may serve another model under the name).

    An OpenAI-compatible server (``compat:``) is named by its model alone: the model is the
    judge, the URL only where it runs today, so a server restarted on another port (or moved
    to another machine) is served the answers it gave before and a run resumes (issue 28.5;
    issue 10 had made the endpoint part of it). Name the model after ``#`` as what it is
    (``qwen2.5-1.5b-q4``): two servers under one name are one judge."""
    base = f"{client.provider}:{client.model}"
    if client.provider == "compat":
        return base
    endpoint = endpoint_of(client)
    return f"{base}@{endpoint}" if endpoint else base


def new_call_id() -> str:
    return uuid.uuid4().hex


@dataclass
class Attempt:
    """One attempt as the ledger stores it (mirrors llm_calls)."""

    stage: str
    judge: str
    model: str | None
    prompt_version: str
    input_hash: str
    task_key: str | None
    status: str  # ok | error | malformed | pending
    error: str | None = None
    response: str | None = None
    parsed: Any = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_ms: float | None = None
    cost_usd: float | None = None
    attempt: int = 1
    batch_id: str | None = None
    call_id: str = field(default_factory=new_call_id)
    created_at: datetime = field(default_factory=datetime.now)

    def params(self) -> dict[str, object]:
        """The row as stored: what a server sent back (an error body echoing the request's
        key, an answer) without any known secret (toolex.llm.keys)."""
        row = {name: getattr(self, name) for name in _COLUMNS}
        row["parsed"] = None if self.parsed is None else json.dumps(self.parsed)
        for name in _SERVER_TEXT:
            row[name] = redact_secrets(row[name])
        return row


class Hit(NamedTuple):
    """The answer the ledger serves for an input hash: its newest ``ok`` row."""

    call_id: str
    parsed: Any  # the parsed answer, as the judge's parser returned it


class Pending(NamedTuple):
    """A batch request submitted and not yet collected (toolex.llm.batch)."""

    call_id: str  # the request's custom_id
    batch_id: str
    attempt: int


class Ledger:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._db = store.cursor()  # commits on its own, outside the stage's transaction

    def record(self, attempts: Sequence[Attempt]) -> None:
        """Append attempts in one transaction (one commit for a burst of finished calls)."""
        if not attempts:
            return
        rows = [a.params() for a in attempts]
        batch = pa.Table.from_pylist(rows, schema=_ARROW_SCHEMA)
        with self._db.registered("ledger_batch", batch):
            self._db.execute("llm/10_ledger_insert.sql")

    def hits(self, hashes: Iterable[str]) -> dict[str, Hit]:
        """input_hash -> the answer served for it, for the hashes the ledger answers."""
        wanted = sorted(set(hashes))
        rows = queries.ledger_hits(self._db, wanted) if wanted else []
        # the answer as the judge's parser returned it (JSON text in the ledger)
        parsed = (json.loads(r.parsed) if isinstance(r.parsed, str) else r.parsed for r in rows)
        return {r.input_hash: Hit(r.call_id, p) for r, p in zip(rows, parsed, strict=True)}

    def pending(self, hashes: Iterable[str]) -> dict[str, Pending]:
        """input_hash -> its batch request not yet collected."""
        wanted = sorted(set(hashes))
        rows = queries.ledger_pending(self._db, wanted) if wanted else []
        return {r.input_hash: Pending(r.call_id, r.batch_id, r.attempt) for r in rows}

    def settle(self, call_id: str, values: Mapping[str, Any]) -> None:
        params = dict(values, call_id=call_id)
        if params.get("parsed") is not None:
            params["parsed"] = json.dumps(params["parsed"])
        for name in _SERVER_TEXT:
            if params.get(name) is not None:
                params[name] = redact_secrets(params[name])
        self._db.execute("llm/40_ledger_settle.sql", params)

    def rows(self) -> list[dict[str, Any]]:
        """Every attempt, oldest first (tests, `toolex expand --calls`)."""
        return self._db.rows("llm/60_ledger_rows.sql")

    def summary(self) -> list[queries.SummaryRow]:
        return queries.ledger_summary(self._db)
