"""The providers' batch APIs (OpenAI Batch over the Files API; Anthropic Message Batches):
half price, results within hours, for large runs.

Flow, resumable at every step through the ledger:
1. calls the ledger already answers are served from it;
2. calls with a ``pending`` ledger row belong to a batch submitted by an earlier (possibly
   killed) run: they are not submitted again, their batch is polled;
3. the rest are submitted as one batch per stage run; each gets a ``pending`` row carrying the
   batch id, with the row's call_id as the request's custom_id;
4. every batch is polled until it ends, then collected: each pending row is settled in place as
   ``ok``, ``malformed`` or ``error``;
5. requests the batch did not answer well go through the ordinary executor (direct calls with
   backoff), so a batch run ends with the same answers as a direct one; a rejected batch answer
   is corrected there as any other (its first direct attempt names the problem).
A kill between submitting and recording would orphan that batch (it is submitted again on the
re-run); the window is one HTTP round trip.

Every call to the batch API keeps to a total deadline (toolex.llm.deadline): the judge's timeout
for a status, that plus the time the bytes take at ``UPLOAD_RATE`` for an upload, and ``FILE_S``
and ``FILE_BYTES`` for results coming down. A failed
submit, ``POLL_FAILURES`` failed polls in a row or a failed collection stop the stage with one
line (ModelUnavailableError) that says what the ledger keeps: submitted requests stay pending, and
the re-run polls their batch again.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from toolex.errors import ModelUnavailableError, ToolexError
from toolex.llm.calls import Call, Result
from toolex.llm.clients import ChatClient, Reply, Request, token_count
from toolex.llm.clients.chat import ProviderChat, without_secrets
from toolex.llm.corrections import ANSWER_CAP, storable
from toolex.llm.deadline import DEFAULT_MAX_BYTES, limits
from toolex.llm.executor import Executor
from toolex.llm.failures import PermanentError, TransientError, classify
from toolex.llm.keys import redact_url
from toolex.llm.ledger import Attempt, Ledger, new_call_id
from toolex.llm.logprobs import read_openai
from toolex.llm.pricing import cost_usd

OPENAI_ENDPOINT = "/v1/chat/completions"
FILE_S = 1800.0  # the deadline of the download of a batch's results
FILE_BYTES = 4 * 2**30  # the most a batch's results may take (10,000 answers with logprobs)
UPLOAD_RATE = 256 * 2**10  # bytes a second an upload's deadline allows for, past the timeout
POLL_FAILURES = 10  # failed polls in a row before the stage stops (the batch stays pending)
T = TypeVar("T")
# Requests per submitted batch: below both providers' limits (OpenAI 50,000 requests and 200 MB
# per input file; Anthropic 100,000 requests and 256 MB per batch) for prompts of ~10 KB.
MAX_REQUESTS = 10_000


def submit(client: ProviderChat, ledger: Ledger, executor: Executor, calls: list[Call]) -> str:
    """Submit ``calls`` as one batch and record them as pending; returns the batch id."""
    ids = [new_call_id() for _ in calls]
    try:
        batch_id = _send(client, ids, calls)
    except (TransientError, PermanentError) as exc:
        raise ModelUnavailableError(
            f"submitting a batch of {len(calls)} requests to {_where(client)} failed: {exc}; "
            "nothing is recorded as submitted, so a re-run submits them again (or set "
            "batch = false to call directly)"
        ) from None
    ledger.record(
        [
            Attempt(
                executor.stage,
                executor.judge,
                client.model,
                executor.prompt_version,
                c.input_hash,
                c.key,
                status="pending",
                batch_id=batch_id,
                call_id=cid,
            )
            for cid, c in zip(ids, calls, strict=True)
        ]
    )
    return batch_id


def _send(client: ProviderChat, ids: list[str], calls: list[Call]) -> str:
    """Upload and create one batch of ``calls`` under ``ids``; its id."""
    sdk = client.sdk_client
    if client.provider == "anthropic":
        requests = [
            {"custom_id": cid, "params": client.request_body(_request(c))}
            for cid, c in zip(ids, calls, strict=True)
        ]
        seconds = _upload_s(client, len(json.dumps(requests)))
        batch = sdk_call(client, lambda: sdk.messages.batches.create(requests=requests), seconds)
        return str(batch.id)
    else:
        lines = [
            json.dumps(
                {
                    "custom_id": cid,
                    "method": "POST",
                    "url": OPENAI_ENDPOINT,
                    "body": client.request_body(_request(c)),
                }
            )
            for cid, c in zip(ids, calls, strict=True)
        ]
        data = ("\n".join(lines) + "\n").encode()
        upload = sdk_call(
            client,
            lambda: sdk.files.create(
                file=("toolex-batch.jsonl", data, "application/jsonl"), purpose="batch"
            ),
            _upload_s(client, len(data)),
        )
        batch = sdk_call(
            client,
            lambda: sdk.batches.create(
                input_file_id=upload.id, endpoint=OPENAI_ENDPOINT, completion_window="24h"
            ),
        )
    return str(batch.id)


def sdk_call(
    client: ProviderChat,
    call: Callable[[], T],
    seconds: float | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> T:
    """``call()`` (one or more requests through ``client``'s SDK) within ``seconds`` (None: the
    judge's timeout) and ``max_bytes``, its failures as toolex's (TransientError,
    PermanentError: toolex.llm.failures), saying what ended it."""
    with limits(seconds, max_bytes) as watch:
        try:
            return call()
        except client._sdk_error as exc:
            raise watch.reworded(classify(exc, client._sdk)) from None


def _upload_s(client: ProviderChat, size: int) -> float:
    """The deadline of an upload of ``size`` bytes: the judge's timeout, plus the time the
    bytes take at ``UPLOAD_RATE``."""
    timeout = client.sdk_client.timeout
    base = timeout if isinstance(timeout, int | float) else 60.0
    return float(base) + size / UPLOAD_RATE


def _where(client: ProviderChat) -> str:
    return redact_url(str(client.sdk_client.base_url)).rstrip("/")


def _request(call: Call) -> Request:
    return Request(call.system, call.user, schema=call.schema, logprobs=call.logprobs)


def ended(client: ProviderChat, batch_id: str) -> bool:
    sdk = client.sdk_client
    if client.provider == "anthropic":
        status = sdk_call(client, lambda: sdk.messages.batches.retrieve(batch_id))
        return bool(status.processing_status == "ended")
    batch = sdk_call(client, lambda: sdk.batches.retrieve(batch_id))
    return batch.status in ("completed", "failed", "expired", "cancelled")


def collect(client: ProviderChat, batch_id: str) -> dict[str, Reply | str]:
    """custom_id -> Reply, or an error message for requests the batch did not answer."""
    sdk = client.sdk_client
    out: dict[str, Reply | str] = {}
    if client.provider == "anthropic":
        from toolex.llm.clients import reply_from_anthropic

        def results() -> None:  # the results stream in: read them all within the bounds
            for item in sdk.messages.batches.results(batch_id):
                result = item.result
                out[item.custom_id] = (
                    reply_from_anthropic(result.message)
                    if result.type == "succeeded"
                    else f"batch: {result.type}"
                )

        sdk_call(client, results, FILE_S, FILE_BYTES)
        return out
    batch = sdk_call(client, lambda: sdk.batches.retrieve(batch_id))
    for file_id in (batch.output_file_id, batch.error_file_id):
        if not file_id:
            continue
        text: str = sdk_call(
            client, functools.partial(_file_text, client, file_id), FILE_S, FILE_BYTES
        )
        for line in text.splitlines():
            if line.strip():
                item = json.loads(line)
                out[item["custom_id"]] = _openai_line(item)
    return out


def _file_text(client: ProviderChat, file_id: str) -> str:
    return str(client.sdk_client.files.content(file_id).text)


def _openai_line(item: dict[str, Any]) -> Reply | str:
    resp = item.get("response") or {}
    if item.get("error") or resp.get("status_code") != 200:
        return f"batch: {item.get('error') or resp.get('status_code')}"
    body = resp["body"]
    usage = body.get("usage") or {}
    choice = body["choices"][0]
    return Reply(
        choice["message"]["content"] or "",
        token_count(usage.get("prompt_tokens")),
        token_count(usage.get("completion_tokens")),
        truncated=choice.get("finish_reason") == "length",
        tokens=read_openai(choice),
    )


def run_batch(
    client: ChatClient,
    ledger: Ledger,
    executor: Executor,
    calls: list[Call],
    *,
    poll_s: float = 30.0,
    max_requests: int = MAX_REQUESTS,
) -> Iterator[Result]:
    if not isinstance(client, ProviderChat):  # batches go through a provider's SDK
        raise ToolexError(f"{client.provider}:{client.model} has no batch API; run without batch")
    done, todo = executor.cached(calls)
    yield from done
    if not todo:
        return
    members = _submitted(client, ledger, executor, todo, max_requests)
    retry: list[Call] = []
    for bid, entries in members.items():
        while not _ended_safely(client, bid):
            time.sleep(poll_s)
        answers = _answers(client, bid)
        for cid, call in entries:
            result = _settle(ledger, executor, client, cid, call, answers.get(cid))
            if isinstance(result, Result):
                yield result
            else:
                retry.append(result)
    if retry:  # what the batch could not answer goes through direct calls with backoff
        yield from executor.run(retry)


def _submitted(
    client: ProviderChat, ledger: Ledger, executor: Executor, todo: list[Call], max_requests: int
) -> dict[str, list[tuple[str, Call]]]:
    """Batch id -> its (custom_id, call): the batches a past run left pending, then the rest of
    ``todo`` submitted in batches of up to ``max_requests`` (all before any polling)."""
    pending = ledger.pending(c.input_hash for c in todo)
    members: dict[str, list[tuple[str, Call]]] = {}
    for call in todo:
        if call.input_hash in pending:
            request = pending[call.input_hash]
            members.setdefault(request.batch_id, []).append((request.call_id, call))
    fresh = [c for c in todo if c.input_hash not in pending]
    for start in range(0, len(fresh), max_requests):
        chunk = fresh[start : start + max_requests]
        bid = submit(client, ledger, executor, chunk)
        rows = ledger.pending(c.input_hash for c in chunk)
        members[bid] = [(rows[c.input_hash].call_id, c) for c in chunk]
    return members


def _answers(client: ProviderChat, batch_id: str) -> dict[str, Reply | str]:
    """The ended batch's answers by custom_id (a message for a request it did not answer),
    replies without secrets."""
    try:
        return {
            cid: without_secrets(a) if isinstance(a, Reply) else a
            for cid, a in collect(client, batch_id).items()
        }
    except (TransientError, PermanentError) as exc:
        raise _stopped(client, batch_id, f"collecting its results failed: {exc}") from None


_failed_polls: dict[str, int] = {}  # batch id -> polls in a row that failed


def _ended_safely(client: ProviderChat, batch_id: str) -> bool:
    """Whether the batch ended; a failed poll is retried at the next interval, up to
    ``POLL_FAILURES`` in a row."""
    try:
        done = ended(client, batch_id)
    except TransientError as exc:
        _failed_polls[batch_id] = failed = _failed_polls.get(batch_id, 0) + 1
        if failed < POLL_FAILURES:
            return False
        raise _stopped(
            client, batch_id, f"{failed} polls in a row failed, the last: {exc}"
        ) from None
    except PermanentError as exc:
        raise _stopped(client, batch_id, f"polling it failed: {exc}") from None
    _failed_polls.pop(batch_id, None)
    return done


def _stopped(client: ProviderChat, batch_id: str, why: str) -> ModelUnavailableError:
    return ModelUnavailableError(
        f"the batch {batch_id} at {_where(client)}: {why}. Its requests stay pending in the "
        "ledger: a re-run polls the same batch again"
    )


def _settle(
    ledger: Ledger,
    executor: Executor,
    client: ProviderChat,
    cid: str,
    call: Call,
    answer: Reply | str | None,
) -> Result | Call:
    """Settle a pending row from the batch's answer: the result, or the call to make directly
    (carrying the correction of a rejected answer)."""
    values: dict[str, Any] = {
        "status": "error",
        "error": None,
        "response": None,
        "parsed": None,
        "prompt_tokens": None,
        "completion_tokens": None,
        "cost_usd": None,
        "latency_ms": None,
    }
    if answer is None:
        values["error"] = "batch: no result for this request"
    elif isinstance(answer, str):
        values["error"] = answer
    else:
        row = Attempt("", "", None, "", "", None, "error")
        correction = executor.read(row, answer, call, _request(call))
        values.update(
            status=row.status,
            error=row.error,
            response=storable(answer.text, ANSWER_CAP),
            parsed=row.parsed,
            prompt_tokens=answer.prompt_tokens,
            completion_tokens=answer.completion_tokens,
            cost_usd=cost_usd(
                client.model, answer.prompt_tokens, answer.completion_tokens, batch=True
            ),
        )
        if correction is not None:
            call = replace(call, correction=correction)
    ledger.settle(cid, values)
    executor.spend.attempts += 1
    if values["cost_usd"] is not None:
        executor.spend.cost_usd += values["cost_usd"]
    if values["status"] != "ok":
        return call
    return Result(call, True, values["parsed"], call_id=cid, attempts=1)
