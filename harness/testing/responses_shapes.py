"""The shapes of a Responses stream (:mod:`harness.testing.shapes`): which identity events carry, where values ride.

The API names each fragment by both ``item_id`` and ``output_index``, streams
values as deltas, closes each part and item with its whole value, and repeats
every item in ``response.completed``. Relays and translators drop one of the
two identities, send a value only in its ``.done`` events or whole in
``output_item.added``, leave out the part, lifecycle and numbering events, and
either carry the items only in ``response.completed`` or leave its ``output``
empty because they were streamed.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.testing.shapes import relay

_DELTAS = {"response.output_text.delta", "response.reasoning_summary_text.delta",
           "response.function_call_arguments.delta"}
_PART_EVENTS = {"response.content_part.added", "response.content_part.done", "response.reasoning_summary_part.added",
                "response.reasoning_summary_part.done"}
# Every event that names its item by item_id (and output_index): deltas, value .done events, part events.
_OF_AN_ITEM = _DELTAS | _PART_EVENTS | {"response.output_text.done", "response.reasoning_summary_text.done",
                                        "response.function_call_arguments.done"}
_ITEM_EVENTS = {"response.output_item.added", "response.output_item.done"}


def _without(types: set[str]) -> Callable[[list], list]:
    return lambda events: [e for e in events if e.get("type") not in types]


def _drop_key(key: str, types: set[str]) -> Callable[[list], list]:
    def vary(events: list) -> list:
        for event in events:
            if event.get("type") in types:
                event.pop(key, None)
        return events
    return vary


def _no_sequence_numbers(events: list) -> list:
    for event in events:
        event.pop("sequence_number", None)
    return events


def _arguments_in_added(events: list) -> list:
    """Each call's whole arguments in its ``output_item.added``; its argument deltas sent no more."""
    done = {e["item"]["id"]: e["item"]["arguments"] for e in events
            if e.get("type") == "response.output_item.done" and e["item"]["type"] == "function_call"}
    for event in events:
        if event.get("type") == "response.output_item.added" and event["item"]["id"] in done:
            event["item"]["arguments"] = done[event["item"]["id"]]
    return _without({"response.function_call_arguments.delta"})(events)


def _completed(events: list) -> dict:
    return next(e for e in events if e.get("type") == "response.completed")["response"]


def _only_in_completed(events: list) -> list:
    return _without(_OF_AN_ITEM | _ITEM_EVENTS)(events) if _completed(events)["output"] else events


def _completed_without_output(events: list) -> list:
    _completed(events)["output"] = []
    return events


SHAPES = (
    relay("events without item_id", "relays that name items by output_index", _drop_key("item_id", _OF_AN_ITEM)),
    relay("events without output_index", "relays that name items by item_id", _drop_key("output_index", _OF_AN_ITEM)),
    relay("text only in .done events", "relays that do not stream text",
          _without({"response.output_text.delta", "response.reasoning_summary_text.delta"})),
    relay("arguments only in .done events", "relays that do not stream arguments",
          _without({"response.function_call_arguments.delta"})),
    relay("arguments whole in output_item.added", "translators of whole calls", _arguments_in_added),
    relay("no part events", "translators", _without(_PART_EVENTS)),
    relay("no lifecycle events", "translators", _without({"response.created", "response.in_progress"})),
    relay("no sequence numbers", "translators", _no_sequence_numbers),
    relay("items only in response.completed", "relays replaying a whole response", _only_in_completed),
    relay("response.completed without output", "relays that streamed the items", _completed_without_output),
)
