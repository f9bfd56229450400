"""How a Gemini history is written: ``contents``, one per model turn, the responses and the next question in one user content.

A user content that is only ``functionResponse`` parts answers the model
content before it, part for part; an exchange (what trimming keeps or drops
whole) starts at any other user content.
"""

from __future__ import annotations

from harness.reference.gemini.messages import serialize_message
from harness.reference.round_history import HistoryWire, merging_users


def _starts_exchange(content: dict) -> bool:
    return content.get("role") == "user" and any("functionResponse" not in part for part in content.get("parts") or ())


def _request(contents: list, schemas: list[dict]) -> dict:
    declarations = [{"name": s["function"]["name"], "description": s["function"].get("description", ""),
                     "parameters": s["function"].get("parameters") or {"type": "object"}} for s in schemas]
    return {"contents": contents, "tools": [{"functionDeclarations": declarations}]}


WIRE = HistoryWire(serialize=serialize_message, add=merging_users("parts"), request=_request,
                   starts_exchange=_starts_exchange)
