"""Anthropic Messages SSE bodies written from a neutral turn: the one writer of every Messages stream the harness sends.

A neutral turn (``harness.adapter``, the ``anthropic`` section) is written as
the events Anthropic streams: ``message_start`` (a message with empty
``content`` and its usage), per block ``content_block_start`` (the block with
empty values: text ``""``, thinking ``""`` and signature ``""``, tool_use with
``input`` ``{}``; redacted_thinking whole, with its ``data``), its
``content_block_delta`` events and ``content_block_stop``, then
``message_delta`` (``stop_reason`` and usage) and ``message_stop``.

A :class:`Plan` says how: the pieces each block's values are cut into (empty
pieces are legal; a zero-argument tool streams only ``""``; Anthropic sends a
signature in one ``signature_delta``, a re-chunking relay in several), the
order of the block events (blocks one after the other, as Anthropic sends
them, or deltas of several open blocks interleaved, as translators do), which
usage ``message_start`` carries and which unchanged keys ``message_delta``
repeats, ``ping`` events anywhere, the data-only form of relays (no ``event:``
line: the type is in the data), an ``error`` event mid-stream, and a body cut
before ``message_stop``.

:func:`harness.wire.sse.sse_events` frames the events; :func:`events` of the
same module reads a body back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from harness.wire.sse import PLAIN, Framing, sse_events

MESSAGE_ID = "msg_01XFDUDYJgAACzvnptvVoYEL"
MODEL = "claude-sonnet-4-5-20250929"
OVERLOADED = {"type": "overloaded_error", "message": "Overloaded"}

# A neutral value's delta type and the key the piece travels under.
DELTAS = {
    "text": ("text_delta", "text"),
    "thinking": ("thinking_delta", "thinking"),
    "signature": ("signature_delta", "signature"),
    "arguments": ("input_json_delta", "partial_json"),
}
# The values of each neutral block type that stream as deltas, in the order Anthropic sends them.
STREAMED = {
    "text": (("text", "text"),),
    "reasoning": (("thinking", "text"), ("signature", "signature")),
    "tool_call": (("arguments", "arguments"),),
    "redacted_reasoning": (),
}

Piece = tuple[str, str]  # (a DELTAS key, the piece)
Step = tuple[str, int]  # ("start" | "delta" | "stop", block index)


@dataclass(frozen=True)
class Plan:
    """How a turn is written.

    ``pieces``: per block, its ``(kind, piece)`` deltas in order (``kind`` a
    :data:`DELTAS` key); None: :func:`whole_pieces`. ``steps``: the block
    events in order, each ``("start" | "delta" | "stop", index)``, a block's
    deltas taken from its pieces in order; None: :func:`in_order`.
    ``start_usage``: the usage ``message_start`` carries (keys of the turn's
    usage, values that ``message_delta`` may then update); None: all of it.
    ``repeated_usage``: keys ``message_delta`` carries although
    ``message_start`` already had their value (it always carries the changed
    ones).
    ``pings``: event positions (0 = before ``message_start``) a ``ping`` goes
    before. ``named``: ``event:`` lines (False: the data-only form).
    ``error``: the event position an ``error`` event takes, the body ending
    after it. ``cut``: how many events are kept (the body ends before
    ``message_stop``).
    """

    pieces: tuple[tuple[Piece, ...], ...] | None = None
    steps: tuple[Step, ...] | None = None
    start_usage: dict | None = None
    repeated_usage: tuple[str, ...] = ()
    pings: tuple[int, ...] = ()
    named: bool = True
    error: int | None = None
    cut: int | None = None
    framing: Framing = field(default_factory=lambda: PLAIN)


WHOLE = Plan()


def whole_pieces(block: dict) -> tuple[Piece, ...]:
    """Each streamed value of ``block`` as one piece; an empty value sends none, except a call's ``""`` arguments."""
    pieces = []
    for kind, key in STREAMED[block["type"]]:
        value = block[key]
        if value or kind == "arguments":
            pieces.append((kind, value))
    return tuple(pieces)


def in_order(pieces: Sequence[Sequence[Piece]]) -> tuple[Step, ...]:
    """Blocks one after another, as Anthropic streams them: start, every delta, stop."""
    return tuple(step for index, own in enumerate(pieces)
                 for step in (("start", index), *(("delta", index) for _ in own), ("stop", index)))


def whole_signatures(pieces: Sequence[Sequence[Piece]]) -> tuple[tuple[Piece, ...], ...]:
    """``pieces`` with each block's signature pieces joined into one, where its first piece was: as Anthropic sends it."""
    joined = []
    for own in pieces:
        signature = "".join(piece for kind, piece in own if kind == "signature")
        first = next((n for n, (kind, _) in enumerate(own) if kind == "signature"), None)
        joined.append(tuple(("signature", signature) if n == first else (kind, piece)
                            for n, (kind, piece) in enumerate(own) if kind != "signature" or n == first))
    return tuple(joined)


def start_block(block: dict) -> dict:
    """The ``content_block`` of ``content_block_start``: the block's type with empty values (redacted: whole)."""
    kind = block["type"]
    if kind == "text":
        return {"type": "text", "text": ""}
    if kind == "reasoning":
        return {"type": "thinking", "thinking": "", "signature": ""}
    if kind == "redacted_reasoning":
        return {"type": "redacted_thinking", "data": block["data"]}
    if kind == "tool_call":
        return {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
    raise ValueError(f"not a neutral block type: {kind!r}")


def delta_event(index: int, piece: Piece) -> dict:
    kind, value = piece
    delta_type, key = DELTAS[kind]
    return {"type": "content_block_delta", "index": index, "delta": {"type": delta_type, key: value}}


def split_usage(usage: dict | None, start: dict | None,
                repeated: Sequence[str] = ()) -> tuple[dict | None, dict | None]:
    """``message_start``'s and ``message_delta``'s usage, which merged key by key give ``usage``.

    ``message_delta`` carries every key whose value changed or that
    ``message_start`` lacks, and the ``repeated`` ones with their unchanged value.
    """
    if usage is None:
        return None, None
    start = dict(usage) if start is None else dict(start)
    if not start.keys() <= usage.keys() or not set(repeated) <= usage.keys():
        raise ValueError(f"message_start usage keys {sorted(start)} or repeated keys {sorted(repeated)} are not all "
                         f"the turn's {sorted(usage)}")
    return start, {key: value for key, value in usage.items()
                   if key not in start or start[key] != value or key in repeated}


def turn_events(turn: dict, plan: Plan = WHOLE) -> list[dict]:
    """The events of ``turn`` (their data; the name is each one's ``type``) as ``plan`` writes them."""
    blocks = turn["blocks"]
    pieces = plan.pieces if plan.pieces is not None else tuple(whole_pieces(b) for b in blocks)
    if len(pieces) != len(blocks):
        raise ValueError(f"the plan cuts {len(pieces)} blocks, the turn has {len(blocks)}")
    steps = plan.steps if plan.steps is not None else in_order(pieces)
    start_usage, delta_usage = split_usage(turn.get("usage"), plan.start_usage, plan.repeated_usage)
    message = {"id": MESSAGE_ID, "type": "message", "role": "assistant", "model": MODEL, "content": [],
               "stop_reason": None, "stop_sequence": None}
    if start_usage is not None:
        message["usage"] = start_usage
    events = [{"type": "message_start", "message": message}]
    sent = [0] * len(blocks)
    for step, index in steps:
        if step == "start":
            events.append({"type": "content_block_start", "index": index, "content_block": start_block(blocks[index])})
        elif step == "delta":
            events.append(delta_event(index, pieces[index][sent[index]]))
            sent[index] += 1
        else:
            events.append({"type": "content_block_stop", "index": index})
    if sent != [len(own) for own in pieces]:
        raise ValueError(f"the plan's steps send {sent} deltas per block, its pieces are {[len(p) for p in pieces]}")
    final = {"type": "message_delta", "delta": {"stop_reason": turn.get("stop_reason"), "stop_sequence": None}}
    if delta_usage is not None:
        final["usage"] = delta_usage
    events += [final, {"type": "message_stop"}]
    return _disturbed(events, plan)


def _disturbed(events: list[dict], plan: Plan) -> list[dict]:
    """``events`` with the plan's pings, error event and cut."""
    if plan.error is not None:
        events = [*events[: plan.error], {"type": "error", "error": OVERLOADED}]
    elif plan.cut is not None:
        if plan.cut >= len(events):
            raise ValueError(f"a cut after {plan.cut} of {len(events)} events keeps message_stop")
        events = events[: plan.cut]
    for position in sorted(plan.pings, reverse=True):
        events.insert(min(position, len(events)), {"type": "ping"})
    return events


def frame(events: Sequence[dict], plan: Plan = WHOLE) -> bytes:
    """``events`` as an SSE body: ``event: TYPE`` and ``data: JSON`` each (data only unless ``plan.named``)."""
    return sse_events([(event["type"] if plan.named else None, json.dumps(event, ensure_ascii=False))
                       for event in events], plan.framing)


def turn_body(turn: dict, plan: Plan = WHOLE) -> bytes:
    """The SSE body that streams ``turn`` as ``plan`` says."""
    return frame(turn_events(turn, plan), plan)
