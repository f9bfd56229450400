"""A streamed chat completion (SSE body) to one response: text, reasoning, tool calls, finish, usage."""

from __future__ import annotations

import json

from tinyllm.calls import ToolCalls
from tinyllm.sse import data_events


class StreamError(ValueError):
    """The body cannot be read as a chat-completion stream, or it reports an error."""


def parse_stream(body: bytes) -> dict:
    content: list[str] = []
    reasoning: list[str] = []
    calls = ToolCalls()
    response = {"finish_reason": None, "usage": None}
    for number, data in enumerate(data_events(body), 1):
        try:
            chunk = json.loads(data)
        except ValueError:
            raise StreamError(f"event {number} is not JSON: {data[:200]!r}") from None
        if not isinstance(chunk, dict):
            raise StreamError(f"event {number} is not an object")
        if chunk.get("error") is not None:
            raise StreamError(f"event {number}: the provider reported an error: {chunk['error']!r:.300}")
        if chunk.get("usage") is not None:
            response["usage"] = chunk["usage"]
        for choice in chunk.get("choices") or []:
            if choice.get("finish_reason") is not None:
                response["finish_reason"] = choice["finish_reason"]
            delta = choice.get("delta") or {}
            if delta.get("content"):
                content.append(delta["content"])
            if delta.get("reasoning_content"):
                reasoning.append(delta["reasoning_content"])
            if delta.get("tool_calls"):
                calls.add(delta["tool_calls"])
    return {
        "content": "".join(content),
        "reasoning": "".join(reasoning),
        "tool_calls": calls.result(),
        "finish_reason": response["finish_reason"],
        "usage": response["usage"],
    }
