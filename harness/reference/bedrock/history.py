"""How a Converse history is written: ``messages`` alternating user and assistant, results alone in their user turn.

A user message holding ``toolResult`` blocks answers the assistant message
before it, block for block; an exchange (what trimming keeps or drops whole)
starts at any other user message. The request declares the tools in
``toolConfig`` (Bedrock refuses tool blocks without it).
"""

from __future__ import annotations

from harness.reference.bedrock.messages import serialize_message
from harness.reference.round_history import HistoryWire, merging_users

MAX_TOKENS = 4096


def _starts_exchange(message: dict) -> bool:
    return message.get("role") == "user" and any("toolResult" not in block for block in message.get("content") or ())


def tool_config(schemas: list[dict]) -> dict:
    return {"tools": [{"toolSpec": {"name": s["function"]["name"], "description": s["function"].get("description")
                                    or s["function"]["name"],
                                    "inputSchema": {"json": s["function"].get("parameters") or {"type": "object"}}}}
                      for s in schemas]}


def _request(messages: list, schemas: list[dict]) -> dict:
    body: dict = {"messages": messages, "inferenceConfig": {"maxTokens": MAX_TOKENS}}
    if schemas:
        body["toolConfig"] = tool_config(schemas)
    return body


WIRE = HistoryWire(serialize=serialize_message, add=merging_users("content"), request=_request,
                   starts_exchange=_starts_exchange)
