"""The layout of an OpenAI Responses stream as the API emits it (and the Open Responses streaming profile requires).

Every event is numbered (``sequence_number``, one more than the event before);
``response.created`` opens the stream and one terminal event ends it
(``response.completed``, ``response.failed`` or ``response.incomplete``,
whose response's ``status`` says the same; or an ``error`` event). Each output
item is announced by ``response.output_item.added`` (empty, a message or call
``in_progress``) and closed by ``response.output_item.done`` (whole,
``completed``); every event of an item names it by both ``item_id`` and
``output_index``; each part of a message or of a reasoning summary opens and
closes with its part events; each value streams as deltas that join to the
value the item closes with; ``response.completed`` repeats every item as it
closed, and carries the usage.
"""

from __future__ import annotations

from harness.rules.stream_faults import StreamFault, StreamRules, not_objects

EVENTS = "responses-stream-events"
SEQUENCE = "responses-stream-sequence"
OPENED = "responses-stream-created"
TERMINAL = "responses-stream-terminal"
IDENTITY = "responses-stream-item-identity"
STATUS = "responses-stream-item-status"
DELTAS = "responses-stream-deltas"
PARTS = "responses-stream-parts"
OUTPUT = "responses-stream-output"
USAGE = "responses-stream-usage"
RULES = (EVENTS, SEQUENCE, OPENED, TERMINAL, IDENTITY, STATUS, DELTAS, PARTS, OUTPUT, USAGE)

ENDS = {"response.completed": "completed", "response.failed": "failed", "response.incomplete": "incomplete"}
# Per delta event: the item type it streams into, the key of the part's index (None: a call's one value).
_DELTAS = {"response.output_text.delta": ("message", "content_index"),
           "response.reasoning_summary_text.delta": ("reasoning", "summary_index"),
           "response.function_call_arguments.delta": ("function_call", None)}
_VALUE_DONE = {"response.output_text.done", "response.reasoning_summary_text.done",
               "response.function_call_arguments.done"}
# Per item type with parts: its part events (added, done), and the part's index key.
_PART_EVENTS = {"message": ("response.content_part.added", "response.content_part.done", "content_index"),
                "reasoning": ("response.reasoning_summary_part.added", "response.reasoning_summary_part.done",
                              "summary_index")}
_OF_AN_ITEM = set(_DELTAS) | _VALUE_DONE | {e for added, done, _ in _PART_EVENTS.values() for e in (added, done)}
_EMPTY = {"message": ("content", []), "reasoning": ("summary", []), "function_call": ("arguments", "")}
_STATUSED = ("message", "function_call")  # the item types whose items carry a status


def stream_faults(values: list) -> list[StreamFault]:
    """Every fault of a Responses stream's event values."""
    events = [(n, v) for n, v in enumerate(values) if isinstance(v, dict)]
    return [*not_objects(EVENTS, values), *_typed(events), *_sequence(events), *_opened(events),
            *_terminal(events, len(values)), *_identity(events), *_status(events), *_deltas(events),
            *_parts(events), *_output(events), *_usage(events)]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _typed(events: list) -> list[StreamFault]:
    return [StreamFault(EVENTS, n, f"an event without a string type: {sorted(e)}")
            for n, e in events if not isinstance(e.get("type"), str)]


def _sequence(events: list) -> list[StreamFault]:
    faults, before = [], None
    for n, event in events:
        number = event.get("sequence_number")
        if not _is_int(number):
            faults.append(StreamFault(SEQUENCE, n, f"{event.get('type')} has sequence_number {number!r}, not an "
                                      "integer"))
        elif before is not None and number != before + 1:
            faults.append(StreamFault(SEQUENCE, n, f"{event.get('type')} has sequence_number {number} after "
                                      f"{before}; expected {before + 1}"))
        before = number if _is_int(number) else before
    return faults


def _opened(events: list) -> list[StreamFault]:
    if events and events[0][1].get("type") == "response.created":
        return []
    first = events[0][1].get("type") if events else "nothing"
    return [StreamFault(OPENED, events[0][0] if events else None,
                        f"the stream opens with {first}, not response.created")]


def _terminal(events: list, count: int) -> list[StreamFault]:
    ends = [(n, e) for n, e in events if e.get("type") in ENDS or e.get("type") == "error"]
    if not ends:
        return [StreamFault(TERMINAL, None, f"no terminal event ({', '.join(ENDS)} or error) in {count} events")]
    faults = [StreamFault(TERMINAL, n, f"{e.get('type')} is not the last event: events follow it")
              for n, e in ends if n != count - 1]
    n, last = ends[-1]
    word = ENDS.get(last.get("type"))
    status = (last.get("response") or {}).get("status") if isinstance(last.get("response"), dict) else None
    if word is not None and status != word:
        faults.append(StreamFault(TERMINAL, n, f"{last['type']}'s response has status {status!r}, expected {word!r}"))
    return faults


def _added(events: list) -> dict[int, dict]:
    """The items announced, by output_index."""
    return {e["output_index"]: e["item"] for _, e in events
            if e.get("type") == "response.output_item.added" and _is_int(e.get("output_index"))
            and isinstance(e.get("item"), dict)}


def _identity(events: list) -> list[StreamFault]:
    faults, announced = [], {}
    for n, event in events:
        kind = event.get("type")
        if kind in ("response.output_item.added", "response.output_item.done"):
            item, index = event.get("item"), event.get("output_index")
            if not _is_int(index) or not isinstance(item, dict) or not isinstance(item.get("id"), str):
                faults.append(StreamFault(IDENTITY, n, f"{kind} without an integer output_index and an item with "
                                          f"a string id (output_index {index!r})"))
            elif kind.endswith(".added"):
                if index != len(announced):
                    faults.append(StreamFault(IDENTITY, n, f"item {item['id']!r} added at output_index {index}; "
                                              f"expected {len(announced)}"))
                announced[index] = item["id"]
            elif announced.get(index) != item["id"]:
                faults.append(StreamFault(IDENTITY, n, f"output_item.done for item {item['id']!r} at output_index "
                                          f"{index}, which was not added there"))
        elif kind in _OF_AN_ITEM:
            item_id, index = event.get("item_id"), event.get("output_index")
            if not isinstance(item_id, str) or not _is_int(index):
                faults.append(StreamFault(IDENTITY, n, f"{kind} names its item by item_id {item_id!r} and "
                                          f"output_index {index!r}: both are required"))
            elif announced.get(index) != item_id:
                faults.append(StreamFault(IDENTITY, n, f"{kind} names item {item_id!r} at output_index {index}, "
                                          "which was not added before it"))
    return faults


def _status(events: list) -> list[StreamFault]:
    faults = []
    for n, event in events:
        item = event.get("item")
        if not isinstance(item, dict) or item.get("type") not in _STATUSED:
            continue
        if event.get("type") == "response.output_item.added" and item.get("status") != "in_progress":
            faults.append(StreamFault(STATUS, n, f"{item['type']} item {item.get('id')!r} added with status "
                                      f"{item.get('status')!r}, expected 'in_progress'"))
        if event.get("type") == "response.output_item.done" and item.get("status") not in ("completed",
                                                                                            "incomplete"):
            faults.append(StreamFault(STATUS, n, f"{item['type']} item {item.get('id')!r} done with status "
                                      f"{item.get('status')!r}, expected 'completed' (or 'incomplete')"))
    return faults


def _done_items(events: list) -> list[tuple[int, dict]]:
    return [(n, e["item"]) for n, e in events
            if e.get("type") == "response.output_item.done" and isinstance(e.get("item"), dict)]


def _values(item: dict) -> list[str]:
    """The whole value of each part of a closed item."""
    kind = item.get("type")
    parts = item.get("content") if kind == "message" else item.get("summary") if kind == "reasoning" else None
    if kind == "function_call":
        return [item.get("arguments")]
    return [p.get("text") for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


def _deltas(events: list) -> list[StreamFault]:
    faults = []
    for n, event in events:
        item = event.get("item")
        if event.get("type") == "response.output_item.added" and isinstance(item, dict) and item.get("type") in _EMPTY:
            key, empty = _EMPTY[item["type"]]
            if key in item and item[key] != empty:
                faults.append(StreamFault(DELTAS, n, f"{item['type']} item {item.get('id')!r} is added with its "
                                          f"{key} {item[key]!r}; it opens empty ({empty!r}) and streams as deltas"))
    for n, item in _done_items(events):
        joined: dict[int, str] = {}
        for _, e in events:
            if e.get("type") in _DELTAS and e.get("item_id") == item.get("id"):
                _, index_key = _DELTAS[e["type"]]
                part = e.get(index_key, 0) if index_key else 0
                joined[part] = joined.get(part, "") + (e.get("delta") if isinstance(e.get("delta"), str) else "")
        for part, value in enumerate(_values(item)):
            if joined.get(part, "") != value:
                faults.append(StreamFault(DELTAS, n, f"{item.get('type')} item {item.get('id')!r} part {part} closes "
                                          f"with {value!r}, its deltas join to {joined.get(part, '')!r}"))
    return faults


def _parts(events: list) -> list[StreamFault]:
    faults = []
    for n, item in _done_items(events):
        if item.get("type") not in _PART_EVENTS:
            continue
        added, done, key = _PART_EVENTS[item["type"]]
        for part in range(len(_values(item))):
            for kind in (added, done):
                if not any(e.get("type") == kind and e.get("item_id") == item.get("id") and e.get(key) == part
                           for m, e in events if m < n):
                    faults.append(StreamFault(PARTS, n, f"{item['type']} item {item.get('id')!r} part {part} has "
                                              f"no {kind} before the item closes"))
    return faults


def _completed(events: list) -> tuple[int, dict] | None:
    return next(((n, e["response"]) for n, e in events
                 if e.get("type") == "response.completed" and isinstance(e.get("response"), dict)), None)


def _output(events: list) -> list[StreamFault]:
    completed = _completed(events)
    if completed is None:
        return []
    n, response = completed
    output = response.get("output") if isinstance(response.get("output"), list) else []
    streamed = [item for _, item in _done_items(events)]
    faults = [StreamFault(OUTPUT, n, f"item {item.get('id')!r} streamed but missing from response.completed's "
                          "output") for item in streamed if item not in output]
    faults += [StreamFault(OUTPUT, n, f"item {item.get('id') if isinstance(item, dict) else item!r} in "
                           "response.completed's output was never streamed whole (output_item.done)")
               for item in output if item not in streamed]
    return faults


def _usage(events: list) -> list[StreamFault]:
    completed = _completed(events)
    if completed is None:
        return []
    n, response = completed
    usage = response.get("usage")
    counts = ("input_tokens", "output_tokens", "total_tokens")
    if isinstance(usage, dict) and all(_is_int(usage.get(key)) for key in counts):
        return []
    return [StreamFault(USAGE, n, f"response.completed's usage is {usage!r}; expected {', '.join(counts)} counts")]


STREAM_RULES = StreamRules(RULES, stream_faults)
