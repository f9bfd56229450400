"""Neutral messages to Converse ``Message`` objects: ``{role, content: [content blocks]}``.

A model turn goes back whole, its blocks in the order received: ``text``
(a blank one is left out: Bedrock refuses it), ``reasoningContent`` with
``reasoningText {text, signature}`` exactly as that block carried them, or
``redactedContent`` with the bytes sent, ``toolUse`` with its ``toolUseId``,
``name`` and ``input`` the parsed arguments (``{}`` for ``""``). A reasoning
block without a signature is left out: Bedrock's Claude models refuse it
unsigned and no other model reads it back. A user message puts its
``toolResult`` blocks first, one per call answered, in order (``status``
``success``, the content a text block, or no block for an empty result:
Bedrock refuses an empty text block), then its text. (Bedrock refuses a user turn holding both; the rounds
kernel never writes one, since every turn ends on a round without calls.)
"""

from __future__ import annotations

import json


class BlockError(ValueError):
    """A block the serializer cannot write."""


def input_of(block: dict) -> dict:
    """A call's arguments as the ``input`` object: ``""`` (none) is ``{}``, text cut mid-object is kept whole."""
    text = block.get("arguments") or ""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"INVALID_JSON": text}
    if not isinstance(value, dict):
        raise BlockError(f"call {block.get('name')!r}: arguments are {type(value).__name__}, not an object")
    return value


def to_content(block: dict) -> dict | None:
    """One neutral block as its content block; None for one that goes back as nothing."""
    kind = block.get("type")
    if kind == "text":
        return {"text": block["text"]} if (block.get("text") or "").strip() else None
    if kind == "reasoning":
        if not block.get("signature"):
            return None
        return {"reasoningContent": {"reasoningText": {"text": block.get("text") or "",
                                                       "signature": block["signature"]}}}
    if kind == "redacted_reasoning":
        return {"reasoningContent": {"redactedContent": block["data"]}}
    if kind == "tool_call":
        return {"toolUse": {"toolUseId": block["id"], "name": block["name"], "input": input_of(block)}}
    raise BlockError(f"block of a type Converse has no content block for: {kind!r}")


def tool_result(result: dict) -> dict:
    content = result.get("content") or ""
    return {"toolResult": {"toolUseId": result["tool_call_id"], "content": [{"text": content}] if content else [],
                           "status": "success"}}


def serialize_message(message: dict) -> dict:
    role = message.get("role")
    if role == "assistant":
        return {"role": "assistant",
                "content": [c for c in map(to_content, message.get("blocks") or ()) if c is not None]}
    if role == "user":
        content = [tool_result(r) for r in message.get("tool_results") or ()]
        if (message.get("content") or "").strip():
            content.append({"text": message["content"]})
        return {"role": "user", "content": content}
    raise BlockError(f"message role {role!r}: a Converse history holds only user and assistant messages")
