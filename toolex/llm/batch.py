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
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from toolex.llm.calls import Call, Result
from toolex.llm.clients import Reply, Request, TransientError, token_count
from toolex.llm.corrections import ANSWER_CAP, storable
from toolex.llm.executor import Executor
from toolex.llm.ledger import Attempt, Ledger, new_call_id
from toolex.llm.logprobs import read_openai
from toolex.llm.pricing import cost_usd

OPENAI_ENDPOINT = "/v1/chat/completions"
# Requests per submitted batch: below both providers' limits (OpenAI 50,000 requests and 200 MB
# per input file; Anthropic 100,000 requests and 256 MB per batch) for prompts of ~10 KB.
MAX_REQUESTS = 10_000


def submit(client: Any, ledger: Ledger, executor: Executor, calls: list[Call]) -> str:
    """Submit ``calls`` as one batch and record them as pending; returns the batch id."""
    ids = [new_call_id() for _ in calls]
    sdk = client.sdk_client
    if client.provider == "anthropic":
        batch = sdk.messages.batches.create(
            requests=[
                {"custom_id": cid, "params": client.request_body(_request(c))}
                for cid, c in zip(ids, calls, strict=True)
            ]
        )
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
        upload = sdk.files.create(
            file=("toolex-batch.jsonl", ("\n".join(lines) + "\n").encode(), "application/jsonl"),
            purpose="batch",
        )
        batch = sdk.batches.create(
            input_file_id=upload.id, endpoint=OPENAI_ENDPOINT, completion_window="24h"
        )
    batch_id: str = batch.id
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


def _request(call: Call) -> Request:
    return Request(call.system, call.user, schema=call.schema, logprobs=call.logprobs)


def ended(client: Any, batch_id: str) -> bool:
    sdk = client.sdk_client
    if client.provider == "anthropic":
        return bool(sdk.messages.batches.retrieve(batch_id).processing_status == "ended")
    return sdk.batches.retrieve(batch_id).status in ("completed", "failed", "expired", "cancelled")


def collect(client: Any, batch_id: str) -> dict[str, Reply | str]:
    """custom_id -> Reply, or an error message for requests the batch did not answer."""
    sdk = client.sdk_client
    out: dict[str, Reply | str] = {}
    if client.provider == "anthropic":
        from toolex.llm.clients import reply_from_anthropic

        for item in sdk.messages.batches.results(batch_id):
            result = item.result
            out[item.custom_id] = (
                reply_from_anthropic(result.message)
                if result.type == "succeeded"
                else f"batch: {result.type}"
            )
        return out
    batch = sdk.batches.retrieve(batch_id)
    for file_id in (batch.output_file_id, batch.error_file_id):
        if not file_id:
            continue
        for line in sdk.files.content(file_id).text.splitlines():
            if line.strip():
                item = json.loads(line)
                out[item["custom_id"]] = _openai_line(item)
    return out


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
    client: Any,
    ledger: Ledger,
    executor: Executor,
    calls: list[Call],
    *,
    poll_s: float = 30.0,
    max_requests: int = MAX_REQUESTS,
) -> Iterator[Result]:
    done, todo = executor.cached(calls)
    yield from done
    if not todo:
        return
    pending = ledger.pending(c.input_hash for c in todo)
    members: dict[str, list[tuple[str, Call]]] = {}  # batch id -> (custom_id, call)
    for call in todo:
        if call.input_hash in pending:
            request = pending[call.input_hash]
            members.setdefault(request.batch_id, []).append((request.call_id, call))
    fresh = [c for c in todo if c.input_hash not in pending]
    for start in range(0, len(fresh), max_requests):  # all batches are submitted before polling
        chunk = fresh[start : start + max_requests]
        bid = submit(client, ledger, executor, chunk)
        rows = ledger.pending(c.input_hash for c in chunk)
        members[bid] = [(rows[c.input_hash].call_id, c) for c in chunk]

    retry: list[Call] = []
    for bid, entries in members.items():
        while not _ended_safely(client, bid):
            time.sleep(poll_s)
        answers = collect(client, bid)
        for cid, call in entries:
            result = _settle(ledger, executor, client, cid, call, answers.get(cid))
            if isinstance(result, Result):
                yield result
            else:
                retry.append(result)
    if retry:  # what the batch could not answer goes through direct calls with backoff
        yield from executor.run(retry)


def _ended_safely(client: Any, batch_id: str) -> bool:
    try:
        return ended(client, batch_id)
    except Exception as exc:  # a failed poll is retried at the next interval
        if isinstance(exc, TransientError) or "timeout" in type(exc).__name__.lower():
            return False
        raise


def _settle(
    ledger: Ledger,
    executor: Executor,
    client: Any,
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
