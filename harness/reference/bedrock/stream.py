"""The reference ConverseStream decoder: an event-stream body to the neutral turn it streamed.

A block is known by its ``contentBlockIndex`` alone, never by when it
arrived: a text block has no ``contentBlockStart``, and deltas of several
blocks may interleave. A call's ``toolUse.input`` pieces join per block; a
reasoning block's text pieces join, its signature is its own (pieces joined,
never carried over to the next block), and ``redactedContent`` is kept as
the bytes sent. ``messageStop`` gives the stop reason and ``metadata`` (the
last event) the usage. An exception message, a body cut anywhere or a message
it cannot read raises :class:`~harness.reference.sse.StreamError`: an
incomplete turn is never returned as complete.
"""

from __future__ import annotations

import base64
import binascii
import json

from harness.reference.bedrock.eventstream import FrameError, messages
from harness.reference.sse import StreamError

__all__ = ["StreamError", "parse_stream"]


class _Refused(ValueError):
    pass


class _Turn:
    def __init__(self) -> None:
        self.blocks: dict[int, dict] = {}
        self.stop_reason: str | None = None
        self.usage: dict | None = None
        self.finished = False

    def _block(self, index: object, kind: str) -> dict:
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise _Refused(f"contentBlockIndex is {index!r}, not an index")
        block = self.blocks.setdefault(index, {"type": kind})
        if block["type"] != kind:
            raise _Refused(f"block {index} is a {block['type']} block; a {kind} delta cannot join it")
        return block

    def add(self, name: str, payload: dict) -> None:
        if self.stop_reason is not None and name != "metadata":
            raise _Refused(f"a {name} event after messageStop")
        if name == "contentBlockStart":
            tool = (payload.get("start") or {}).get("toolUse")
            if tool is not None:
                block = self._block(payload.get("contentBlockIndex"), "tool_call")
                block.update(id=tool.get("toolUseId") or "", name=tool.get("name") or "")
                block.setdefault("arguments", "")
        elif name == "contentBlockDelta":
            self._delta(payload.get("contentBlockIndex"), payload.get("delta") or {})
        elif name == "messageStop":
            self.stop_reason = payload.get("stopReason")
            if not isinstance(self.stop_reason, str):
                raise _Refused(f"messageStop has no stopReason: {payload!r}")
        elif name == "metadata":
            if self.stop_reason is None:
                raise _Refused("metadata before messageStop")
            self.usage = payload.get("usage")
            self.finished = True

    def _delta(self, index: object, delta: dict) -> None:
        if "text" in delta:
            block = self._block(index, "text")
            block["text"] = block.get("text", "") + delta["text"]
        elif "toolUse" in delta:
            block = self._block(index, "tool_call")
            block["arguments"] = block.get("arguments", "") + (delta["toolUse"].get("input") or "")
        elif "reasoningContent" in delta:
            self._reasoning(index, delta["reasoningContent"])
        else:
            raise _Refused(f"a delta of no kind this decoder reads: {sorted(delta)}")

    def _reasoning(self, index: object, piece: dict) -> None:
        if "redactedContent" in piece:
            block = self._block(index, "redacted_reasoning")
            try:
                raw = base64.b64decode(piece["redactedContent"], validate=True)
            except (binascii.Error, TypeError, ValueError):
                raise _Refused(f"redactedContent is not base64: {piece['redactedContent']!r}") from None
            block["bytes"] = block.get("bytes", b"") + raw
            return
        block = self._block(index, "reasoning")
        block.setdefault("text", "")
        block.setdefault("signature", "")
        block["text"] += piece.get("text") or ""
        block["signature"] += piece.get("signature") or ""

    def neutral(self) -> dict:
        blocks = []
        for index in sorted(self.blocks):
            block = dict(self.blocks[index])
            if block["type"] == "redacted_reasoning":
                block = {"type": "redacted_reasoning", "data": base64.b64encode(block.pop("bytes", b"")).decode()}
            elif block["type"] == "tool_call":
                block = {"type": "tool_call", "id": block.get("id", ""), "name": block.get("name", ""),
                         "arguments": block.get("arguments", "")}
            blocks.append(block)
        return {"blocks": blocks, "stop_reason": self.stop_reason, "usage": self.usage}


def _payload(number: int, headers: dict, payload: bytes) -> tuple[str, dict]:
    kind = headers.get(":message-type")
    if kind == "exception":
        try:
            said = json.loads(payload).get("message")
        except (ValueError, AttributeError):
            said = payload.decode("utf-8", "replace")
        raise StreamError(number, payload.decode("utf-8", "replace"),
                          f"the provider sent {headers.get(':exception-type')}: {said}")
    if kind == "error":
        raise StreamError(number, "", f"the provider sent {headers.get(':error-code')}: {headers.get(':error-message')}")
    name = headers.get(":event-type")
    if kind != "event" or not isinstance(name, str):
        raise StreamError(number, "", f"a message that is no event (:message-type {kind!r})")
    try:
        value = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as exc:
        raise StreamError(number, payload.decode("utf-8", "replace"), f"{name}: the payload is not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise StreamError(number, payload.decode("utf-8", "replace"), f"{name}: the payload is not a JSON object")
    return name, value


def parse_stream(body: bytes) -> dict:
    turn = _Turn()
    number = 0
    try:
        for number, headers, payload in messages(body):
            name, value = _payload(number, headers, payload)
            try:
                turn.add(name, value)
            except (_Refused, AttributeError, TypeError) as exc:
                raise StreamError(number, payload.decode("utf-8", "replace"), f"{name}: {exc}") from None
    except FrameError as exc:
        raise StreamError(number + 1, "", str(exc)) from None
    if not turn.finished:
        raise StreamError(number, "", "the stream ended before its metadata event: the turn is incomplete")
    return turn.neutral()
