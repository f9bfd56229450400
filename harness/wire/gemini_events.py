"""Gemini ``alt=sse`` bodies written from a neutral turn: the one writer of every Gemini stream the harness sends.

A neutral turn (``harness.adapter``, the ``gemini`` section) is written as
Gemini streams it: every event's data a whole ``GenerateContentResponse``
whose ``candidates[0].content`` (role ``model``) holds the next parts, each
block one part with its ``thoughtSignature`` exactly where the block has one
and a call's ``args`` as the object its arguments are; the last chunk carries
``finishReason`` and the turn's ``usageMetadata``.

A :class:`Plan` says how: how many parts each chunk carries (a chunk may
carry none), which earlier chunks carry a running ``usageMetadata``, whether
the finish reason comes in a chunk of its own, an ``error`` chunk mid-stream,
a body cut before the finish, and the SSE framing.
:func:`harness.wire.sse.events` reads a body back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from harness.wire.sse import PLAIN, Framing, sse_events

MODEL_VERSION = "gemini-3-pro-preview"
RESPONSE_ID = "k3QbacjHGoyvz7IPq5mK0Qg"
UNAVAILABLE = {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}


@dataclass(frozen=True)
class Plan:
    """How a turn is written.

    ``groups``: how many parts each chunk carries, in order (their sum is the
    turn's part count); None: one part per chunk. ``running_usage``: per chunk
    index, the ``usageMetadata`` it carries before the last one (the last chunk
    carries the turn's usage). ``finish_alone``: the finish reason (and the
    usage) in a chunk of its own after the parts. ``bare_candidates``: chunks
    without the optional ``role`` and ``index``. ``interim_finish``: the
    ``finishReason`` every chunk before the finish carries (relays that write
    proto defaults send ``FINISH_REASON_UNSPECIFIED``). ``error``: the chunk position
    an ``error`` chunk takes, the body ending after it. ``cut``: how many chunks
    are kept (the body ends before the finish).
    """

    groups: tuple[int, ...] | None = None
    running_usage: tuple[tuple[int, dict], ...] = ()
    finish_alone: bool = False
    bare_candidates: bool = False
    signature_only: bool = False
    interim_finish: str | None = None
    error: int | None = None
    cut: int | None = None
    framing: Framing = field(default_factory=lambda: PLAIN)


WHOLE = Plan()


def wire_part(block: dict) -> dict:
    """The part Gemini sent for a neutral block: its signature on it exactly when the block has one."""
    kind = block["type"]
    if kind == "tool_call":
        call: dict = {"name": block["name"]}
        if block["arguments"]:
            call["args"] = json.loads(block["arguments"])
        if block["id"]:
            call = {"id": block["id"], **call}
        part: dict = {"functionCall": call}
    elif kind == "text":
        part = {"text": block["text"]}
    elif kind == "reasoning":
        part = {"text": block["text"], "thought": True}
    else:
        raise ValueError(f"Gemini has no part for a {kind!r} block")
    signature = block.get("signature")
    if signature is not None and (kind != "reasoning" or signature):
        part["thoughtSignature"] = signature
    return part


def _chunk(parts: list[dict] | None, plan: Plan, finish: str | None = None, usage: dict | None = None) -> dict:
    candidate: dict = {}
    if parts is not None:
        candidate["content"] = {"parts": parts} if plan.bare_candidates else {"role": "model", "parts": parts}
    if finish is not None:
        candidate["finishReason"] = finish
    if not plan.bare_candidates:
        candidate["index"] = 0
    chunk: dict = {"candidates": [candidate]}
    if usage is not None:
        chunk["usageMetadata"] = usage
    return {**chunk, "modelVersion": MODEL_VERSION, "responseId": RESPONSE_ID}


def turn_chunks(turn: dict, plan: Plan = WHOLE) -> list[dict]:
    """The ``GenerateContentResponse`` chunks of ``turn`` as ``plan`` writes them."""
    parts = [wire_part(b) for b in turn["blocks"]]
    if plan.signature_only:
        parts = [{"thoughtSignature": p["thoughtSignature"]} if p.keys() == {"text", "thoughtSignature"} and not p["text"]
                 else p for p in parts]
    groups = plan.groups if plan.groups is not None else tuple(1 for _ in parts)
    if sum(groups) != len(parts) or any(n < 0 for n in groups):
        raise ValueError(f"the plan groups {list(groups)} parts, the turn has {len(parts)}")
    if not groups and not plan.finish_alone:
        raise ValueError("a turn without parts ends in a chunk of its own: set finish_alone")
    running = dict(plan.running_usage)
    chunks, taken = [], 0
    for k, n in enumerate(groups):
        last = k == len(groups) - 1 and not plan.finish_alone
        chunks.append(_chunk(parts[taken:taken + n], plan, turn["stop_reason"] if last else plan.interim_finish,
                             turn["usage"] if last else running.get(k)))
        taken += n
    if plan.finish_alone:
        chunks.append(_chunk(None, plan, turn["stop_reason"], turn["usage"]))
    return _disturbed(chunks, plan)


def _disturbed(chunks: list[dict], plan: Plan) -> list[dict]:
    if plan.error is not None:
        return [*chunks[: plan.error], {"error": UNAVAILABLE}]
    if plan.cut is not None:
        if plan.cut >= len(chunks):
            raise ValueError(f"a cut after {plan.cut} of {len(chunks)} chunks keeps the finish")
        return chunks[: plan.cut]
    return chunks


def frame(chunks: list[dict], framing: Framing = PLAIN) -> bytes:
    """``chunks`` as an ``alt=sse`` body: one ``data:`` event each, no end marker."""
    return sse_events([(None, json.dumps(chunk, ensure_ascii=False)) for chunk in chunks], framing)


def turn_body(turn: dict, plan: Plan = WHOLE) -> bytes:
    """The SSE body that streams ``turn`` as ``plan`` says."""
    return frame(turn_chunks(turn, plan), plan.framing)
