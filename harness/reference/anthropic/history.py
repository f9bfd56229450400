"""How a Messages history is written: results and the next question share one user message, roles alternate.

A user message that is only ``tool_result`` blocks answers the assistant
message before it; an exchange (what trimming keeps or drops whole) starts
at any other user message.
"""

from __future__ import annotations

from harness.reference.anthropic.messages import serialize_message
from harness.reference.round_history import HistoryWire, merging_users

MAX_TOKENS = 4096


def _starts_exchange(message: dict) -> bool:
    if message.get("role") != "user":
        return False
    content = message.get("content")
    return not isinstance(content, list) or any(block.get("type") != "tool_result" for block in content)


def _request(messages: list, schemas: list[dict]) -> dict:
    tools = [{"name": s["function"]["name"], "description": s["function"].get("description", ""),
              "input_schema": s["function"].get("parameters") or {"type": "object"}} for s in schemas]
    return {"model": "reference", "max_tokens": MAX_TOKENS, "messages": messages, "tools": tools, "stream": True}  # pragma: no mutate (out of scope: `"reference"` -> *, `"stream": True` -> `"stream": False`: the model id and whether the answer streams are the kernel's own choice, which its model callable answers either way)


WIRE = HistoryWire(serialize=serialize_message, add=merging_users("content"), request=_request,
                   starts_exchange=_starts_exchange)
