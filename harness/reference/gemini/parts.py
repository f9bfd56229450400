"""One ``part`` of a Gemini ``Content`` and the neutral block it is, both ways.

A part is whole when it arrives: Gemini never splits one part over several
stream events, so a part is one block, and its ``thoughtSignature`` belongs
to that block alone. ``args`` is a JSON object; the neutral block keeps it
as JSON text (``harness.adapter``, the ``gemini`` section).
"""

from __future__ import annotations

import json


class PartError(ValueError):
    """A part the decoder or the serializer refuses; the caller names where it is."""


def to_block(part: object) -> dict:
    """A wire part to its neutral block, the signature kept on exactly this block."""
    if not isinstance(part, dict):
        raise PartError(f"a part is {part!r}, not an object")
    signature = part.get("thoughtSignature")
    if signature is not None and not isinstance(signature, str):
        raise PartError(f"thoughtSignature is {signature!r}, not a string")
    if "functionCall" in part:
        block = _call(part["functionCall"])
    elif "text" in part:
        text = part["text"]
        if not isinstance(text, str):
            raise PartError(f"text is {text!r}, not a string")
        if part.get("thought") is True:
            return {"type": "reasoning", "text": text, "signature": signature or ""}
        block = {"type": "text", "text": text}
    elif signature is not None:
        # A part that carries only its signature (some streams end a text answer so): an empty text part.
        block = {"type": "text", "text": ""}
    else:
        raise PartError(f"a part of no kind this decoder reads: {sorted(part)}")
    if signature is not None:
        block["signature"] = signature
    return block


def _call(call: object) -> dict:
    if not isinstance(call, dict):
        raise PartError(f"functionCall is {call!r}, not an object")
    name, cid, args = call.get("name"), call.get("id"), call.get("args")
    if not isinstance(name, str):
        raise PartError(f"functionCall.name is {name!r}; a string is required")
    if cid is not None and not isinstance(cid, str):
        raise PartError(f"functionCall.id is {cid!r}, not a string")
    if args is not None and not isinstance(args, dict):
        raise PartError(f"functionCall.args is {args!r}, not a JSON object")
    arguments = "" if args is None else json.dumps(args, ensure_ascii=False, separators=(",", ":"))
    return {"type": "tool_call", "id": cid or "", "name": name, "arguments": arguments}


def args_of(block: dict) -> dict:
    """A call's arguments as the ``args`` object: ``""`` (none) is ``{}``."""
    text = block.get("arguments") or ""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PartError(f"call {block.get('name')!r}: arguments are not JSON ({exc.msg}): {text[:200]!r}") from None
    if not isinstance(value, dict):
        raise PartError(f"call {block.get('name')!r}: arguments are {type(value).__name__}, not an object")
    return value


def to_part(block: dict) -> dict | None:
    """A neutral block to its wire part, its signature where it was; None for a part that carries nothing."""
    kind = block.get("type")
    signature = block.get("signature") or None
    if kind == "tool_call":
        call = {"name": block["name"], "args": args_of(block)}
        if block.get("id"):
            call["id"] = block["id"]
        part: dict = {"functionCall": call}
    elif kind in ("text", "reasoning"):
        if not block.get("text") and signature is None:
            return None
        part = {"text": block.get("text") or ""}
        if kind == "reasoning":
            part["thought"] = True
    else:
        raise PartError(f"block of a type Gemini has no part for: {kind!r}")
    if signature is not None:
        part["thoughtSignature"] = signature
    return part
