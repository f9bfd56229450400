"""The reference Responses stream decoder: an SSE body to the neutral turn it streamed.

Events are read by their type (the data's ``type``; the ``event:`` line names
the same). A delta goes to the item its ``item_id`` names, or, without one, to
the item at its ``output_index``; never to the item added last. The turn is
returned only on ``response.completed`` (whose ``output`` supplies any item
the stream never sent); ``response.failed``, ``response.incomplete``,
``error``, a body that ends before it, and any event it cannot read raise
:class:`StreamError` naming the event, so an incomplete turn is never
returned as complete.
"""

from __future__ import annotations


from harness.reference.responses.items import ItemError, OpenItem
from harness.reference.sse import StreamError, json_objects

__all__ = ["StreamError", "parse_stream"]

# Delta events and the part of the item each adds to (the part's index key in the event).
_DELTAS = {
    "response.output_text.delta": ("text", "content_index"),
    "response.reasoning_summary_text.delta": ("summary", "summary_index"),
    "response.function_call_arguments.delta": ("arguments", None),
}
_ENDS = ("response.failed", "response.incomplete")


class _Turn:
    def __init__(self) -> None:
        self.items: dict[object, OpenItem] = {}  # by item id, or by ("index", n) until the id is known

    def item(self, event: dict) -> OpenItem:
        item_id, index = event.get("item_id"), event.get("output_index")
        if isinstance(item_id, str) and item_id in self.items:
            return self.items[item_id]
        by_index = next((it for it in self.items.values() if index is not None and it.output_index == index), None)
        if by_index is not None and (item_id is None or by_index.item.get("id") in (None, item_id)):
            return by_index
        if item_id is None and not _is_index(index):
            raise ItemError("an event naming neither an item_id nor an output_index")
        opened = OpenItem(output_index=index if _is_index(index) else None)
        self.items[item_id if isinstance(item_id, str) else ("index", index)] = opened
        return opened

    def placed(self, event: dict) -> OpenItem:
        """The item an ``output_item`` event carries, found by its id or its index."""
        item = event.get("item")
        if not isinstance(item, dict):
            raise ItemError(f"an output_item event whose item is {item!r}")
        found = self.item({"item_id": item.get("id"), "output_index": event.get("output_index")})
        if isinstance(item.get("id"), str):
            for key, value in list(self.items.items()):
                if value is found and key != item["id"]:
                    del self.items[key]
            self.items[item["id"]] = found
        return found

    def neutral(self, response: dict) -> dict:
        # response.completed repeats every item whole: one the stream never sent (a relay replaying a whole
        # response sends items only there) is taken from it.
        output = response.get("output")
        for n, item in enumerate(output if isinstance(output, list) else []):
            if isinstance(item, dict) and item.get("id") not in self.items:
                placed = self.placed({"item": item, "output_index": n})
                placed.finish(item)
                placed.output_index = n
        unplaced = [key for key, it in self.items.items() if not it.added]
        if unplaced:
            raise ItemError(f"deltas for item(s) {unplaced} that the stream never added")
        ordered = sorted(self.items.values(), key=lambda it: it.output_index if it.output_index is not None else -1)
        usage = response.get("usage")
        return {"blocks": [block for it in ordered for block in it.blocks()], "stop_reason": response.get("status"),
                "usage": usage if isinstance(usage, dict) else None}


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _apply(turn: _Turn, event: dict) -> dict | None:
    """Apply one event; the completed response when the stream is over."""
    kind = event.get("type")
    if kind in _DELTAS:
        part, index_key = _DELTAS[kind]
        index = event.get(index_key, 0) if index_key else 0
        turn.item(event).add((part, index if _is_index(index) else 0), event.get("delta"))
    elif kind == "response.output_item.added":
        if event.get("item") is None:
            return None  # some relays announce an item without it; its output_item.done brings it whole
        placed = turn.placed(event)
        placed.open(event["item"])
        if _is_index(event.get("output_index")):
            placed.output_index = event["output_index"]
    elif kind == "response.output_item.done":
        placed = turn.placed(event)
        placed.finish(event["item"])
        if _is_index(event.get("output_index")):
            placed.output_index = event["output_index"]
    elif kind == "response.completed":
        response = event.get("response")
        if not isinstance(response, dict):
            raise ItemError(f"response.completed whose response is {response!r}")
        return response
    elif kind in _ENDS:
        response = event.get("response") or {}
        why = response.get("error") or response.get("incomplete_details")
        raise ItemError(f"{kind}: the turn did not complete ({why!r})")
    elif kind == "error":
        raise ItemError(f"the provider sent an error mid-stream: {event.get('code')}: {event.get('message')}")
    return None


def parse_stream(body: bytes) -> dict:
    turn = _Turn()
    number, data = 0, ""
    for number, data, event in json_objects(body):
        try:
            response = _apply(turn, event)
            if response is not None:
                return turn.neutral(response)
        except ItemError as exc:
            raise StreamError(number, data, str(exc)) from None
    raise StreamError(number, data, "the stream ended before response.completed: the turn is incomplete")
