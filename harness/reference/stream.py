"""The reference stream parser: an OpenAI-compatible SSE body to the neutral response.

Strict on shape: any event it cannot read fully raises :class:`StreamError`
naming the event, rather than losing part of the answer. Only choice 0 is read;
a choice with another index means the request asked for ``n > 1``, which the
neutral response cannot carry, so it is refused too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from harness.reference.accumulator import ToolCallAccumulator
from harness.reference.sse import StreamError, iter_events

__all__ = ["StreamError", "parse_stream"]


@dataclass(frozen=True)
class _Event:
    number: int
    data: str

    def error(self, reason: str) -> StreamError:
        return StreamError(self.number, self.data, reason)  # pragma: no mutate (out of scope: error wording)


@dataclass
class _Response:
    content: list[str] = field(default_factory=list)
    reasoning: list[str] = field(default_factory=list)
    tool_calls: ToolCallAccumulator = field(default_factory=ToolCallAccumulator)
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None

    def neutral(self) -> dict[str, Any]:
        return {
            "content": "".join(self.content),
            "reasoning": "".join(self.reasoning),
            "tool_calls": self.tool_calls.calls(),
            "finish_reason": self.finish_reason,
            "usage": self.usage,
        }


def parse_stream(body: bytes) -> dict[str, Any]:
    """Parse a whole streamed chat completion into the neutral response shape."""
    response = _Response()
    for number, data in iter_events(body):
        event = _Event(number, data)  # pragma: no mutate (out of scope: event numbers, in errors only)
        _take_chunk(event, _load(event), response)
    return response.neutral()


def _load(event: _Event) -> dict[str, Any]:
    try:
        chunk = json.loads(event.data)
    except (ValueError, RecursionError) as exc:
        raise event.error(f"not JSON ({type(exc).__name__})") from None  # pragma: no mutate (out of scope: error wording)
    if not isinstance(chunk, dict):
        raise event.error("the chunk is not a JSON object")  # pragma: no mutate (out of scope: error wording)
    return chunk


def _take_chunk(event: _Event, chunk: dict[str, Any], response: _Response) -> None:
    if chunk.get("error") is not None:
        raise event.error("the provider reported an error inside the stream")
    usage = chunk.get("usage")
    if usage is not None:
        if not isinstance(usage, dict):
            raise event.error("'usage' is not an object")  # pragma: no mutate (out of scope: error wording)
        response.usage = usage
    # A usage-only chunk has "choices": [] (some providers leave the key out).
    choices = chunk.get("choices", [])
    if not isinstance(choices, list):
        raise event.error("'choices' is not a list")  # pragma: no mutate (out of scope: error wording)
    for choice in choices:
        _take_choice(event, choice, response)


def _take_choice(event: _Event, choice: Any, response: _Response) -> None:
    if not isinstance(choice, dict):
        raise event.error("a choice is not an object")  # pragma: no mutate (out of scope: error wording)
    index = choice.get("index")
    if index is not None and not _is_int(index):  # pragma: no mutate (out of scope: a choice without index)
        raise event.error("a choice 'index' is not an integer")  # pragma: no mutate (out of scope: error wording)
    if index not in (None, 0):
        raise event.error(f"choice index {index}: only choice 0 is read (n > 1 is not supported)")  # pragma: no mutate (out of scope: error wording)
    finish_reason = choice.get("finish_reason")
    if finish_reason is not None:
        if not isinstance(finish_reason, str):
            raise event.error("'finish_reason' is not a string")  # pragma: no mutate (out of scope: error wording)
        response.finish_reason = finish_reason
    delta = choice.get("delta")
    if delta is None:
        return
    if not isinstance(delta, dict):
        raise event.error("'delta' is not an object")  # pragma: no mutate (out of scope: error wording)
    for key, parts in (("content", response.content), ("reasoning_content", response.reasoning)):
        text = delta.get(key)
        if text is not None and not isinstance(text, str):
            raise event.error(f"delta '{key}' is neither a string nor null")  # pragma: no mutate (out of scope: error wording)
        if text:
            parts.append(text)
    fragments = delta.get("tool_calls")
    if fragments is None:
        return
    if not isinstance(fragments, list):
        raise event.error("delta 'tool_calls' is not a list")  # pragma: no mutate (out of scope: error wording)
    for fragment in fragments:
        _check_fragment(event, fragment)
    response.tool_calls.add(fragments)


def _check_fragment(event: _Event, fragment: Any) -> None:
    if not isinstance(fragment, dict):
        raise event.error("a tool_calls entry is not an object")  # pragma: no mutate (out of scope: error wording)
    index = fragment.get("index")
    if index is not None and not _is_int(index):
        raise event.error("a tool call 'index' is not an integer")  # pragma: no mutate (out of scope: error wording)
    _check_optional_str(event, fragment, "id")
    function = fragment.get("function")
    if function is None:
        return
    if not isinstance(function, dict):
        raise event.error("a tool call 'function' is not an object")  # pragma: no mutate (out of scope: error wording)
    _check_optional_str(event, function, "name")
    arguments = function.get("arguments")
    if arguments is not None and not isinstance(arguments, (str, dict)):
        raise event.error("a tool call 'arguments' is neither a string, an object nor null")  # pragma: no mutate (out of scope: error wording)


def _check_optional_str(event: _Event, obj: dict[str, Any], key: str) -> None:
    value = obj.get(key)
    if value is not None and not isinstance(value, str):
        raise event.error(f"a tool call {key!r} is neither a string nor null")  # pragma: no mutate (out of scope: error wording)


def _is_int(value: Any) -> bool:
    # JSON true/false decode to bool, which Python counts as int.
    return isinstance(value, int) and not isinstance(value, bool)
