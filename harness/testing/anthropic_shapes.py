"""The shapes of a Messages stream (:mod:`harness.testing.shapes`): where relays put each block's values and the usage.

Anthropic opens every block empty and streams its values as deltas, stops
each block before ``message_delta``, and splits usage between
``message_start`` and ``message_delta``. Relays and translators that replay
a whole answer as events send a block's values whole in its
``content_block_start`` (text, thinking and signature, a tool's ``input``
object), close the message over blocks they stop late or never, carry all of
the usage at the end or in a second ``message_delta``, and leave out the
message's own metadata.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from harness.testing.shapes import relay

# Per wire block type: its delta types, each with the key it travels under and the key it fills in the start.
_VALUES = {
    "text": {"text_delta": ("text", "text")},
    "thinking": {"thinking_delta": ("thinking", "thinking"), "signature_delta": ("signature", "signature")},
    "tool_use": {"input_json_delta": ("partial_json", "input")},
}


def _of(events: list, kind: str) -> list[dict]:
    return [e for e in events if e.get("type") == kind]


def _whole_in_start(wire_type: str) -> Callable[[list], list]:
    """Every ``wire_type`` block's deltas joined into its ``content_block_start``, and sent no more."""
    own = _VALUES[wire_type]

    def vary(events: list) -> list:
        for start in _of(events, "content_block_start"):
            block = start["content_block"]
            if block["type"] != wire_type:
                continue
            deltas = [e for e in _of(events, "content_block_delta") if e["index"] == start["index"]]
            joined = {key: "".join(d["delta"][field] for d in deltas if d["delta"]["type"] == kind)
                      for kind, (field, key) in own.items()}
            if "input" in joined:
                text = joined["input"]
                joined["input"] = json.loads(text) if text else {}
                if not isinstance(joined["input"], dict):
                    continue  # a tool input that is not an object has no whole form in the start
            block.update(joined)
            events = [e for e in events if all(e is not d for d in deltas)]
        return events
    return vary


def _stops_late(events: list) -> list:
    """Every ``content_block_stop`` after ``message_delta``, just before ``message_stop``."""
    stops = _of(events, "content_block_stop")
    rest = [e for e in events if e.get("type") != "content_block_stop"]
    end = next((n for n, e in enumerate(rest) if e.get("type") == "message_stop"), len(rest))
    return [*rest[:end], *stops, *rest[end:]]


def _never_stopped(events: list) -> list:
    return [e for e in events if e.get("type") != "content_block_stop"]


def _usage_at_end(events: list) -> list:
    start, final = _of(events, "message_start")[0]["message"], _of(events, "message_delta")[0]
    if "usage" in start:
        final["usage"] = {**start.pop("usage"), **final.get("usage", {})}
    return events


def _usage_in_own_delta(events: list) -> list:
    final = _of(events, "message_delta")[0]
    if "usage" in final:
        at = events.index(final) + 1
        events.insert(at, {"type": "message_delta", "delta": {}, "usage": final.pop("usage")})
    return events


def _bare_message(events: list) -> list:
    message = _of(events, "message_start")[0]["message"]
    for key in ("id", "model", "stop_reason", "stop_sequence"):
        message.pop(key, None)
    return events


SHAPES = (
    relay("text whole in content_block_start", "relays replaying a whole answer", _whole_in_start("text")),
    relay("thinking and signature whole in content_block_start", "relays replaying a whole answer",
          _whole_in_start("thinking")),
    relay("tool input whole in content_block_start", "translators of whole calls", _whole_in_start("tool_use")),
    relay("blocks stopped after message_delta", "relays that close the message first", _stops_late),
    relay("blocks never stopped", "relays that send no content_block_stop", _never_stopped),
    relay("all usage in message_delta", "relays without usage at the start", _usage_at_end),
    relay("usage in a message_delta of its own", "relays that forward usage as it comes", _usage_in_own_delta),
    relay("message_start without id, model, stop fields", "relays", _bare_message),
)
