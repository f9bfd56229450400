"""Neutral chat messages to OpenAI-compatible wire JSON."""

from __future__ import annotations


def serialize_message(message: dict) -> dict:
    wire = {"role": message["role"], "content": message.get("content")}
    if message["role"] == "assistant":
        if message.get("tool_calls"):
            wire["content"] = message.get("content") or None  # some gateways reject ""
            wire["tool_calls"] = [
                {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
                for c in message["tool_calls"]
            ]
        if message.get("reasoning"):
            wire["reasoning_content"] = message["reasoning"]
    if message["role"] == "tool":
        wire["tool_call_id"] = message["tool_call_id"]
    return wire
