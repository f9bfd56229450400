"""Neutral messages to Messages wire messages: blocks in their order, opaque values untouched.

An assistant message's blocks go out in the order the provider sent them; a
thinking block keeps its signature and a redacted block its data byte for byte
(Anthropic checks both against what it sent). A user message puts its tool
results first, then its text: a result after the text is not "immediately
after" the tool use it answers.
"""

from __future__ import annotations

import json


def _block(block: dict) -> dict | None:
    kind = block.get("type")
    if kind == "text":
        # Anthropic refuses a text block that is empty or only whitespace.
        return {"type": "text", "text": block["text"]} if (block.get("text") or "").strip() else None
    if kind == "reasoning":
        return {"type": "thinking", "thinking": block["text"], "signature": block.get("signature") or ""}
    if kind == "redacted_reasoning":
        return {"type": "redacted_thinking", "data": block["data"]}
    if kind == "tool_call":
        return {"type": "tool_use", "id": block["id"], "name": block["name"], "input": tool_input(block)}
    raise ValueError(f"block of unknown type {kind!r}")


def tool_input(call: dict) -> dict:
    """A call's arguments as the ``input`` object: ``""`` (no arguments streamed) is ``{}``.

    Arguments that are not a JSON object (fine-grained tool streaming cut off
    by ``max_tokens``) go back wrapped as Anthropic suggests,
    ``{"INVALID_JSON": <the raw text>}``: the call stays the one the model made.
    """
    text = call.get("arguments") or ""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"INVALID_JSON": text}  # pragma: no mutate (out of scope: `"INVALID_JSON"` -> *: the wrapper's key, Anthropic's suggestion; any object holding the raw text is taken)
    return value if isinstance(value, dict) else {"INVALID_JSON": text}  # pragma: no mutate (out of scope: `"INVALID_JSON"` -> *: the wrapper's key, Anthropic's suggestion; any object holding the raw text is taken)


def serialize_message(message: dict) -> dict:
    role = message.get("role")
    if role == "assistant":
        content = [wire for wire in map(_block, message.get("blocks") or ()) if wire is not None]
        return {"role": "assistant", "content": content}
    if role == "user":
        content = [
            {"type": "tool_result", "tool_use_id": result["tool_call_id"], "content": result.get("content") or ""}
            for result in message.get("tool_results") or ()
        ]
        if (message.get("content") or "").strip():
            content.append({"type": "text", "text": message["content"]})
        return {"role": "user", "content": content}
    raise ValueError(f"message role {role!r}: a Messages history holds only user and assistant messages")
