"""The reference stream parser: an OpenAI-compatible SSE body to the neutral response.

Strict on shape: any event it cannot read fully raises :class:`StreamError`
naming the event, rather than losing part of the answer. The shape each chunk
must have is one table (``_CHUNK``), so the checks and the fields they name
live in one place; ``shape.py`` checks it by hand, in a JSON Schema
validator's words, with a walk prepared once from the table, since it runs on
every chunk. Only choice 0 is read; a
choice with another index means the request asked for ``n > 1``, which the
neutral response cannot carry, so it is refused too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from harness.reference import json_text
from harness.reference.accumulator import ToolCallAccumulator
from harness.reference.reasoning_details import ReasoningDetails
from harness.reference.shape import Shape, checker
from harness.reference.sse import StreamError, iter_events

__all__ = ["StreamError", "parse_stream"]


_TEXT = Shape(("string", "null"))
_INDEX = Shape(("integer", "null"))
_FUNCTION = Shape(("object", "null"), fields={"name": _TEXT, "arguments": Shape(("string", "object", "null"))})
_FRAGMENT = Shape(("object",), fields={"index": _INDEX, "id": _TEXT, "function": _FUNCTION,
                                       "extra_content": Shape(("object", "null"))})
_DETAIL = Shape(("object",), fields={"index": _INDEX, "text": _TEXT, "summary": _TEXT, "data": _TEXT})
_DELTA = Shape(
    ("object", "null"),
    fields={"content": _TEXT, "reasoning_content": _TEXT, "tool_calls": Shape(("array", "null"), items=_FRAGMENT),
            "reasoning_details": Shape(("array", "null"), items=_DETAIL)},
)
_CHOICE = Shape(("object",), fields={"index": _INDEX, "finish_reason": _TEXT, "delta": _DELTA})
_CHUNK = Shape(("object",), fields={"usage": Shape(("object", "null")), "choices": Shape(("array",), items=_CHOICE)})
_CHECK_CHUNK = checker(_CHUNK)


class _Event(NamedTuple):  # a tuple: one is made per event, and a frozen dataclass costs more to make
    number: int
    data: str

    def error(self, reason: str) -> StreamError:
        return StreamError(self.number, self.data, reason)  # pragma: no mutate (out of scope: `self.number` -> `None`, `self.data` -> `None`, `reason` -> `None`: error wording, its arguments shown only in the message)


@dataclass
class _Response:
    content: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    tool_calls: ToolCallAccumulator = field(default_factory=ToolCallAccumulator)
    details: ReasoningDetails = field(default_factory=ReasoningDetails)
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None

    def neutral(self) -> dict[str, Any]:
        neutral = {
            "content": "".join(self.content),
            "reasoning": "".join(self.reasoning),
            "tool_calls": self.tool_calls.calls(),
            "finish_reason": self.finish_reason,
            "usage": self.usage,
        }
        details = self.details.entries()
        if details:
            neutral["reasoning_details"] = details
        return neutral


def parse_stream(body: bytes) -> dict[str, Any]:
    """Parse a whole streamed chat completion into the neutral response shape."""
    response = _Response()
    loads = json_text.reader(body)
    for number, data in iter_events(body):
        event = _Event(number, data)  # pragma: no mutate (out of scope: `number` -> `None`: event numbers, in errors only)
        _take_chunk(event, _load(event, loads), response)
    return response.neutral()


def _load(event: _Event, loads: Callable[[str], Any]) -> dict[str, Any]:
    try:
        chunk = loads(event.data)
    except (ValueError, RecursionError) as exc:
        raise event.error(f"not JSON ({type(exc).__name__})") from None  # pragma: no mutate (out of scope: `f"not JSON ({type(exc).__name__})"` -> `None`, `type(exc)` -> `type(None)`: error wording)
    wrong = _CHECK_CHUNK(chunk)
    if wrong is not None:
        raise event.error(wrong)  # pragma: no mutate (out of scope: `wrong` -> `None`: error wording)
    return chunk


def _take_chunk(event: _Event, chunk: dict[str, Any], response: _Response) -> None:
    if chunk.get("error") is not None:
        raise event.error("the provider reported an error inside the stream")  # pragma: no mutate (out of scope: `"the provider reported an error inside the stream"` -> *: error wording)
    usage = chunk.get("usage")
    if usage is not None:
        response.usage = usage
    # A usage-only chunk has "choices": [] (some providers leave the key out).
    choices = chunk.get("choices", [])
    for choice in choices:
        _take_choice(event, choice, response)


def _take_choice(event: _Event, choice: dict[str, Any], response: _Response) -> None:
    index = choice.get("index")
    if index not in (None, 0):
        raise event.error(f"choice index {index}: only choice 0 is read (n > 1 is not supported)")  # pragma: no mutate (out of scope: `f"choice index {index}: only choice 0 is read (n > 1 is not supported)"` -> `None`: error wording)
    finish_reason = choice.get("finish_reason")
    if finish_reason is not None:
        response.finish_reason = finish_reason
    delta = choice.get("delta")
    if delta is None:
        return
    for key, parts in (("content", response.content), ("reasoning_content", response.reasoning)):
        text = delta.get(key)
        if text:
            parts.append(text)
    fragments = delta.get("tool_calls")
    if fragments is not None:
        response.tool_calls.add(fragments)
    details = delta.get("reasoning_details")
    if details is not None:
        response.details.add(details)
