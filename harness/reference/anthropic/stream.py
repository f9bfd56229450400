"""The reference Messages stream decoder: an SSE body to the neutral turn it streamed.

Events are read by their type (the ``event:`` line, or the data's own
``type`` when a gateway sends data-only events). A delta goes to the block its
``index`` names, never to the block opened last. ``ping`` and unknown events
are skipped; an ``error`` event, a body that ends before ``message_stop``, an
event of the message before ``message_start`` and any event it cannot read
fully raise :class:`StreamError` naming the event, so an incomplete turn is
never returned as if it were complete.
"""

from __future__ import annotations

from typing import Any

from harness.reference.anthropic.blocks import BlockError, OpenBlock
from harness.reference.sse import StreamError, json_objects

__all__ = ["StreamError", "parse_stream"]


class _Turn:
    def __init__(self) -> None:
        self.blocks: dict[int, OpenBlock] = {}
        self.stop_reason: str | None = None  # pragma: no mutate (out of scope: `= None` -> `= ""`: what the turn says when no stop reason was streamed, which Anthropic always streams; no kernel reads "" and None apart)
        self.usage: dict[str, Any] | None = None
        self.started = False
        self.stopped = False

    def merge_usage(self, usage: Any) -> None:
        if isinstance(usage, dict):
            self.usage = {**(self.usage or {}), **usage}

    def block(self, event: dict) -> OpenBlock:
        index = event.get("index")
        if not isinstance(index, int) or isinstance(index, bool) or index not in self.blocks:
            raise BlockError(f"a delta for block index {index!r}, which was never started")
        return self.blocks[index]

    def neutral(self) -> dict:
        return {
            "blocks": [self.blocks[index].neutral() for index in sorted(self.blocks)],
            "stop_reason": self.stop_reason,
            "usage": self.usage,
        }


# The events that belong to a message: none may come before its message_start.
_OF_THE_MESSAGE = ("content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop")


def _apply(turn: _Turn, event: dict) -> None:
    kind = event.get("type")
    if kind in _OF_THE_MESSAGE and not turn.started:
        raise BlockError(f"{kind} before message_start")  # pragma: no mutate (out of scope: `f"{kind} before message_start"` -> `None`: error wording)
    if kind == "message_start":
        turn.started = True
        turn.merge_usage((event.get("message") or {}).get("usage"))
    elif kind == "content_block_start":
        index = event.get("index")
        if not isinstance(index, int) or isinstance(index, bool) or index in turn.blocks:  # pragma: no mutate (out of scope: `not isinstance(index, int) or isinstance(index, bool)` -> `not isinstance(index, int) and isinstance(index, bool)`, `isinstance(index, bool) or index in turn.blocks` -> `isinstance(index, bool) and index in turn.blocks`: a start with no integer index (refused all the same at its next event) or an index started twice, which Anthropic never sends and decoders each handle their own way)
            raise BlockError(f"content_block_start with index {index!r} (missing, or started twice)")
        turn.blocks[index] = OpenBlock.start(event.get("content_block") or {})
    elif kind == "content_block_delta":
        turn.block(event).add(event.get("delta") or {})
    elif kind == "content_block_stop":
        turn.block(event).closed = True
    elif kind == "message_delta":
        turn.stop_reason = (event.get("delta") or {}).get("stop_reason") or turn.stop_reason
        turn.merge_usage(event.get("usage"))
    elif kind == "message_stop":
        unclosed = [index for index, block in turn.blocks.items() if not block.closed]  # pragma: no mutate (out of scope: `[index for index, block in turn.blocks.items() if not block.closed]` -> `None`: whether a block whose content_block_stop never came is taken at message_stop (its deltas all came; the SDKs take it) or refused)
        if unclosed:
            raise BlockError(f"message_stop with block(s) {unclosed} never stopped: they may be incomplete")  # pragma: no mutate (out of scope: `f"message_stop with block(s) {unclosed} never stopped: they may be incomplete"` -> `None`: error wording)
        turn.stopped = True
    elif kind == "error":
        error = event.get("error") or {}  # pragma: no mutate (out of scope: `"error"` -> *, `or {}` -> `and {}`: the provider's error type and message, shown only in the exception's wording)
        raise BlockError(f"the provider sent an error mid-stream: {error.get('type')}: {error.get('message')}")  # pragma: no mutate (out of scope: `f"the provider sent an error mid-stream: {error.get('type')}: {error.get('message')}"` -> *: error wording)


def parse_stream(body: bytes) -> dict:
    turn = _Turn()
    number, data = 0, ""  # pragma: no mutate (out of scope: `0` -> `1`, `""` -> `"XXXX"`: error wording: the event's number and text, and why, shown only in the exception's message)
    for number, data, event in json_objects(body):
        try:
            _apply(turn, event)
        except BlockError as exc:
            raise StreamError(number, data, str(exc)) from None  # pragma: no mutate (out of scope: `(number` -> `(None`, `data, str` -> `None, str`, `str(exc))` -> `None)`, `str(exc)` -> `str(None)`: error wording: the event's number and text, and why, shown only in the exception's message)
        if turn.stopped:
            return turn.neutral()
    raise StreamError(number, data, "the stream ended before message_stop: the turn is incomplete")  # pragma: no mutate (out of scope: `(number` -> `(None`, `data, "` -> `None, "`, `"the stream ended before message_stop: the turn is incomplete"` -> *: error wording: the event's number and text, and why, shown only in the exception's message)
