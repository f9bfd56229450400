"""OpenAI Responses SSE bodies written from a neutral turn: the one writer of every Responses stream the harness sends.

A neutral turn (``harness.adapter``, the ``openai-responses`` section) is
written as the events the Responses API streams: ``response.created`` and
``response.in_progress``; per output item ``response.output_item.added``
(the item with empty values), its part-added events, its deltas
(``response.output_text.delta``, ``response.reasoning_summary_text.delta``,
``response.function_call_arguments.delta``), its part-done events and
``response.output_item.done`` (the whole item, a reasoning item with its
``encrypted_content``); then ``response.completed`` with the whole response
and its ``usage``. Every event carries its ``sequence_number``.

Consecutive text blocks with one ``item_id`` are the parts of one message
item. A :class:`Plan` says how: the pieces each part's value is cut into
(empty pieces are legal), the order of the item events (items one after the
other, or several open items' deltas interleaved, deltas before their item's
``output_item.added``), the data-only form, the end (``response.failed``,
``response.incomplete``, an ``error`` event, or a cut before the end).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from harness.wire.sse import PLAIN, Framing, sse_events

RESPONSE_ID = "resp_68af4030592c81938ec0a5fbab4a3e9f"
MODEL = "gpt-5-2025-08-07"
ERROR = {"type": "error", "code": "server_error", "message": "The server had an error processing your request.",
         "param": None}
ENDS = {"failed": ("response.failed", {"error": {"code": "server_error", "message": "The model failed."}}),
        "incomplete": ("response.incomplete", {"incomplete_details": {"reason": "max_output_tokens"}})}
DELTA_TYPES = {"message": "response.output_text.delta", "reasoning": "response.reasoning_summary_text.delta",
               "function_call": "response.function_call_arguments.delta"}

Step = tuple[str, int]  # ("added" | "delta" | "done", item position)


@dataclass(frozen=True)
class Item:
    """One output item: its wire type, its id, and the blocks it is made of (a message: one per part)."""

    kind: str
    id: str
    blocks: tuple[dict, ...]

    def values(self) -> list[str]:
        """The streamed value of each part, in part order."""
        if self.kind == "message":
            return [b["text"] for b in self.blocks]
        if self.kind == "reasoning":
            return list(self.blocks[0].get("summary", []))
        return [self.blocks[0]["arguments"]]


def items_of(turn: dict) -> list[Item]:
    """The output items a turn's blocks are, in order."""
    items: list[Item] = []
    for block in turn["blocks"]:
        kind = {"text": "message", "reasoning": "reasoning", "tool_call": "function_call"}[block["type"]]
        last = items[-1] if items else None
        if kind == "message" and last and last.kind == "message" and last.id == block["item_id"]:
            items[-1] = Item(kind, last.id, (*last.blocks, block))
        else:
            items.append(Item(kind, block["item_id"], (block,)))
    return items


@dataclass(frozen=True)
class Plan:
    """How a turn is written.

    ``pieces``: per item, per part, the pieces of its value in order; None: each
    value whole (a call's ``""`` as one empty piece). ``steps``: the item
    events in order, each ``("added" | "delta" | "done", item)``, an item's
    deltas taken from its parts' pieces in order; None: items one after
    another. ``named``: ``event:`` lines (False: data only). ``end``:
    ``"completed"``, ``"failed"`` or ``"incomplete"``. ``error``: the event
    position an ``error`` event takes, the body ending after it. ``cut``: how
    many events are kept (the body ends before its last event).
    """

    pieces: tuple[tuple[tuple[str, ...], ...], ...] | None = None
    steps: tuple[Step, ...] | None = None
    named: bool = True
    end: str = "completed"
    error: int | None = None
    cut: int | None = None
    framing: Framing = field(default_factory=lambda: PLAIN)


WHOLE = Plan()


def whole_pieces(item: Item) -> tuple[tuple[str, ...], ...]:
    return tuple((value,) if value or item.kind == "function_call" else () for value in item.values())


def in_order(pieces: Sequence[Sequence[Sequence[str]]]) -> tuple[Step, ...]:
    """Items one after another, as the provider streams them: added, every delta, done."""
    return tuple(step for n, parts in enumerate(pieces)
                 for step in (("added", n), *(("delta", n) for part in parts for _ in part), ("done", n)))


def added_item(item: Item) -> dict:
    if item.kind == "message":
        return {"id": item.id, "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
    if item.kind == "reasoning":
        return {"id": item.id, "type": "reasoning", "summary": []}
    call = item.blocks[0]
    return {"id": item.id, "type": "function_call", "status": "in_progress", "arguments": "", "call_id": call["id"],
            "name": call["name"]}


def done_item(item: Item) -> dict:
    if item.kind == "message":
        return {"id": item.id, "type": "message", "status": "completed", "role": "assistant",
                "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": b["text"]}
                            for b in item.blocks]}
    if item.kind == "reasoning":
        block = item.blocks[0]
        done = {"id": item.id, "type": "reasoning",
                "summary": [{"type": "summary_text", "text": text} for text in block.get("summary", [])]}
        if block["signature"]:
            done["encrypted_content"] = block["signature"]
        return done
    return {**added_item(item), "status": "completed", "arguments": item.blocks[0]["arguments"]}


def _part_key(kind: str) -> str:
    return {"message": "content_index", "reasoning": "summary_index"}.get(kind, "")


def turn_events(turn: dict, plan: Plan = WHOLE) -> list[dict]:
    """The events of ``turn`` (their data, each with its ``type``) as ``plan`` writes them, numbered."""
    items = items_of(turn)
    pieces = plan.pieces if plan.pieces is not None else tuple(whole_pieces(it) for it in items)
    if [len(p) for p in pieces] != [len(it.values()) for it in items]:
        raise ValueError(f"the plan cuts {[len(p) for p in pieces]} parts, the items have "
                         f"{[len(it.values()) for it in items]}")
    own = [[(part, piece) for part, values in enumerate(parts) for piece in values] for parts in pieces]
    steps = plan.steps if plan.steps is not None else in_order(pieces)
    shell = {"id": RESPONSE_ID, "object": "response", "created_at": 1756315696, "model": MODEL, "output": [],
             "status": "in_progress", "usage": None}
    events = [{"type": "response.created", "response": shell}, {"type": "response.in_progress", "response": shell}]
    sent = [0] * len(items)
    opened: list[set[int]] = [set() for _ in items]
    closed: list[set[int]] = [set() for _ in items]
    for step, n in steps:
        item = items[n]
        where = {"item_id": item.id, "output_index": n}
        if step == "added":
            events.append({"type": "response.output_item.added", "output_index": n, "item": added_item(item)})
        elif step == "delta":
            part, piece = own[n][sent[n]]
            sent[n] += 1
            # Parts stream one after another: every earlier part is whole by now, and closes before this one opens.
            events += _parts_through(item, where, range(part), opened[n], closed[n])
            events += _part_added_events(item, where, [part], opened[n])
            delta = {"type": DELTA_TYPES[item.kind], **where, "delta": piece}
            if _part_key(item.kind):
                delta[_part_key(item.kind)] = part
            events.append(delta)
        else:
            events += _parts_through(item, where, range(len(item.values())), opened[n], closed[n])
            events.append({"type": "response.output_item.done", "output_index": n, "item": done_item(item)})
    if sent != [len(o) for o in own]:
        raise ValueError(f"the plan's steps send {sent} deltas per item, its pieces are {[len(o) for o in own]}")
    final = {**shell, "status": "completed", "output": [done_item(it) for it in items], "usage": turn.get("usage")}
    if plan.end == "completed":
        events.append({"type": "response.completed", "response": final})
    else:
        name, extra = ENDS[plan.end]
        events.append({"type": name, "response": {**final, "status": plan.end, **extra}})
    return [{**event, "sequence_number": k} for k, event in enumerate(_disturbed(events, plan))]


def _part(kind: str, text: str) -> dict:
    if kind == "message":
        return {"type": "output_text", "annotations": [], "logprobs": [], "text": text}
    return {"type": "summary_text", "text": text}


PART_EVENTS = {"message": ("response.content_part.added", "response.content_part.done"),
               "reasoning": ("response.reasoning_summary_part.added", "response.reasoning_summary_part.done")}


def _parts_through(item: Item, where: dict, parts, opened: set[int], closed: set[int]) -> list[dict]:
    """Each of ``parts`` opened if it is not yet, then closed: a part with no delta still opens and closes."""
    return [event for k in parts for event in (*_part_added_events(item, where, [k], opened),
                                               *_part_done_events(item, where, [k], closed))]


def _part_added_events(item: Item, where: dict, parts, opened: set[int]) -> list[dict]:
    """A part's ``.added`` event (the part empty) before its first delta, as the API opens each part once."""
    if item.kind not in PART_EVENTS:
        return []
    new = [k for k in parts if k not in opened]
    opened.update(new)
    return [{"type": PART_EVENTS[item.kind][0], **where, _part_key(item.kind): k, "part": _part(item.kind, "")}
            for k in new]


def _part_done_events(item: Item, where: dict, parts, closed: set[int]) -> list[dict]:
    """Each part's text ``.done`` event (with its whole value), then the part's own; each part closed once."""
    new = [k for k in parts if k not in closed]
    closed.update(new)
    values = item.values()
    if item.kind == "function_call":
        return [{"type": "response.function_call_arguments.done", **where, "arguments": values[0]} for _ in new]
    text_done = {"message": "response.output_text.done", "reasoning": "response.reasoning_summary_text.done"}
    key = _part_key(item.kind)
    return [event for k in new for event in (
        {"type": text_done[item.kind], **where, key: k, "text": values[k]},
        {"type": PART_EVENTS[item.kind][1], **where, key: k, "part": _part(item.kind, values[k])})]


def _disturbed(events: list[dict], plan: Plan) -> list[dict]:
    if plan.error is not None:
        return [*events[: plan.error], dict(ERROR)]
    if plan.cut is not None:
        if plan.cut >= len(events):
            raise ValueError(f"a cut after {plan.cut} of {len(events)} events keeps the last one")
        return events[: plan.cut]
    return events


def frame(events: Sequence[dict], plan: Plan = WHOLE) -> bytes:
    return sse_events([(event["type"] if plan.named else None, json.dumps(event, ensure_ascii=False))
                       for event in events], plan.framing)


def turn_body(turn: dict, plan: Plan = WHOLE) -> bytes:
    """The SSE body that streams ``turn`` as ``plan`` says."""
    return frame(turn_events(turn, plan), plan)
