"""How a Responses history is written: one flat ``input`` list of items, sent under ``store: false``.

Nothing is kept server-side, so every earlier item goes back whole (a
reasoning item with its ``encrypted_content``, which the request asks for);
a ``function_call_output`` answers its call by ``call_id``. An exchange
(what trimming keeps or drops whole) starts at a user ``message`` item: a
call, its reasoning item and its output always fall in the same one.
"""

from __future__ import annotations

from harness.reference.responses.messages import serialize_message
from harness.reference.responses.request import ENCRYPTED
from harness.reference.round_history import HistoryWire, extending


def _starts_exchange(item: dict) -> bool:
    return item.get("type", "message") == "message" and item.get("role") == "user"


def _request(items: list, schemas: list[dict]) -> dict:
    tools = [{"type": "function", "name": s["function"]["name"], "description": s["function"].get("description", ""),
              "parameters": s["function"].get("parameters") or {"type": "object"}} for s in schemas]
    return {"model": "reference", "input": items, "tools": tools, "store": False, "include": [ENCRYPTED],
            "stream": True}


WIRE = HistoryWire(serialize=serialize_message, add=extending, request=_request, starts_exchange=_starts_exchange)
