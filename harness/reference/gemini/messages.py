"""Neutral messages to Gemini ``Content``: one model turn is one content, its parts in order, signatures in place.

A model turn goes back whole, as one ``Content`` with every part in the order
received and each ``thoughtSignature`` on the part it came on: splitting
parallel calls over several contents leaves all but the first unsigned, which
Gemini refuses. A user message puts its ``functionResponse`` parts first, one
per call answered, then its text.
"""

from __future__ import annotations

from harness.reference.gemini.parts import to_part


def _response(result: dict) -> dict:
    response = {"name": result.get("name") or "", "response": {"result": result.get("content") or ""}}
    if result.get("tool_call_id"):
        response["id"] = result["tool_call_id"]
    return {"functionResponse": response}


def serialize_message(message: dict) -> dict:
    role = message.get("role")
    if role == "assistant":
        parts = [part for part in map(to_part, message.get("blocks") or ()) if part is not None]
        return {"role": "model", "parts": parts}
    if role == "user":
        parts = [_response(result) for result in message.get("tool_results") or ()]
        if (message.get("content") or "").strip():
            parts.append({"text": message["content"]})
        return {"role": "user", "parts": parts}
    raise ValueError(f"message role {role!r}: a Gemini history holds only user and model contents")
