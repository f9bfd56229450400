"""Neutral messages to Responses ``input`` items: output items back in order, opaque values untouched.

An assistant turn goes back as the output items the provider sent, in their
order: a reasoning item right before the item it preceded, with its id, its
summary (a field the provider requires, ``[]`` when empty) and its
``encrypted_content`` byte for byte (without storage, the only way the
reasoning can be found again). A user message puts its
``function_call_output`` items first, one per result, then its text.
"""

from __future__ import annotations


def _reasoning(block: dict) -> dict:
    summary = block.get("summary")
    if summary is None:
        summary = [block["text"]] if block.get("text") else []
    item = {"type": "reasoning", "summary": [{"type": "summary_text", "text": text} for text in summary]}
    if block.get("item_id"):
        item["id"] = block["item_id"]
    if block.get("signature"):
        item["encrypted_content"] = block["signature"]
    return item


def _call(block: dict) -> dict:
    item = {"type": "function_call", "call_id": block["id"], "name": block["name"],
            "arguments": block.get("arguments") or "{}"}
    if block.get("item_id"):
        item["id"] = block["item_id"]
    return item


def _output_items(blocks: list[dict]) -> list[dict]:
    items: list[dict] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "reasoning":
            items.append(_reasoning(block))
        elif kind == "tool_call":
            items.append(_call(block))
        elif kind == "text":
            part = {"type": "output_text", "text": block["text"], "annotations": []}
            last = items[-1] if items else None
            # Parts of one message item stream as consecutive blocks with the item's id.
            if last and last["type"] == "message" and block.get("item_id") and last.get("id") == block["item_id"]:
                last["content"].append(part)
                continue
            message = {"type": "message", "role": "assistant", "content": [part]}
            if block.get("item_id"):
                message["id"] = block["item_id"]
            items.append(message)
        else:
            raise ValueError(f"block of unknown type {kind!r}")
    return items


def serialize_message(message: dict) -> list[dict]:
    role = message.get("role")
    if role == "assistant":
        return _output_items(message.get("blocks") or [])
    if role == "user":
        items = [{"type": "function_call_output", "call_id": result["tool_call_id"], "output": result.get("content") or ""}
                 for result in message.get("tool_results") or ()]
        if message.get("content"):
            items.append({"type": "message", "role": "user", "content": message["content"]})
        return items
    raise ValueError(f"message role {role!r}: a Responses history here holds only user and assistant messages")
