"""The layout of an Anthropic Messages stream as the API emits it.

``message_start`` opens the stream with the message's own fields (``id``,
``type``, ``role``, ``model``, empty ``content``, ``stop_reason`` null) and the
usage counted so far; blocks follow one by one, numbered from 0, each opened
empty by ``content_block_start``, filled by its deltas and closed by
``content_block_stop``; then one ``message_delta`` (the stop reason, the
usage) and ``message_stop`` last. ``ping`` may come anywhere; an ``error``
event ends the stream.
"""

from __future__ import annotations

from harness.rules.stream_faults import StreamFault, StreamRules, not_objects

EVENTS = "anthropic-stream-events"
START = "anthropic-stream-message-start"
BLOCKS = "anthropic-stream-blocks"
END = "anthropic-stream-end"
RULES = (EVENTS, START, BLOCKS, END)

_EMPTY = {"text": {"text": ""}, "thinking": {"thinking": "", "signature": ""}, "tool_use": {"input": {}}}
_BLOCK_EVENTS = ("content_block_start", "content_block_delta", "content_block_stop")


def stream_faults(values: list) -> list[StreamFault]:
    """Every fault of a Messages stream's event values."""
    events = [(n, v) for n, v in enumerate(values) if isinstance(v, dict) and v.get("type") != "ping"]
    faults = not_objects(EVENTS, values)
    faults += [StreamFault(EVENTS, n, f"an event without a string type: {sorted(v)}")
               for n, v in enumerate(values) if isinstance(v, dict) and not isinstance(v.get("type"), str)]
    return [*faults, *_start(events), *_blocks(events), *_end(events, len(values))]


def _start(events: list) -> list[StreamFault]:
    if not events or events[0][1].get("type") != "message_start":
        first = events[0][1].get("type") if events else "nothing"
        return [StreamFault(START, events[0][0] if events else None, f"the stream opens with {first}, not "
                            "message_start")]
    n, event = events[0]
    message = event.get("message") if isinstance(event.get("message"), dict) else {}
    want = {"id": isinstance(message.get("id"), str), "type": message.get("type") == "message",
            "role": message.get("role") == "assistant", "model": isinstance(message.get("model"), str),
            "content": message.get("content") == [], "stop_reason": "stop_reason" in message
            and message["stop_reason"] is None,
            "usage": isinstance(message.get("usage"), dict) and isinstance(message["usage"].get("input_tokens"), int)}
    missing = [key for key, ok in want.items() if not ok]
    return [StreamFault(START, n, f"message_start's message lacks or misstates {', '.join(missing)} (it has "
                        f"{sorted(message)})")] if missing else []


def _blocks(events: list) -> list[StreamFault]:
    faults: list[StreamFault] = []
    started: list[int] = []
    open_: set[int] = set()
    closed_message = False
    for n, event in events:
        kind, index = event.get("type"), event.get("index")
        if kind == "message_delta":
            closed_message = True
            faults += [StreamFault(BLOCKS, n, f"message_delta while block {i} is not stopped") for i in sorted(open_)]
            open_.clear()
            continue
        if kind not in _BLOCK_EVENTS:
            continue
        if closed_message:
            faults.append(StreamFault(BLOCKS, n, f"{kind} of block {index!r} after message_delta"))
        if kind == "content_block_start":
            if index != len(started):
                faults.append(StreamFault(BLOCKS, n, f"block started at index {index!r}; expected {len(started)}"))
            started.append(index)
            open_.add(index)
            block = event.get("content_block") if isinstance(event.get("content_block"), dict) else {}
            empty = _EMPTY.get(block.get("type"), {})
            full = {key: block.get(key) for key, value in empty.items() if block.get(key) != value}
            if full:
                faults.append(StreamFault(BLOCKS, n, f"{block.get('type')} block {index} starts with {full}; a block "
                                          f"opens empty ({empty}) and streams its values as deltas"))
        elif index not in open_:
            faults.append(StreamFault(BLOCKS, n, f"{kind} for block {index!r}, which is not open"))
        elif kind == "content_block_stop":
            open_.discard(index)
    if not closed_message:
        faults += [StreamFault(BLOCKS, None, f"block {i} is never stopped") for i in sorted(open_)]
    return faults


def _end(events: list, count: int) -> list[StreamFault]:
    if events and events[-1][1].get("type") == "error" and events[-1][0] == count - 1:
        return []  # an error event ends the stream where it stands
    faults = []
    deltas = [(n, e) for n, e in events if e.get("type") == "message_delta"]
    if len(deltas) != 1:
        faults.append(StreamFault(END, deltas[1][0] if deltas[1:] else None,
                                  f"{len(deltas)} message_delta events; a message ends with exactly one"))
    for n, event in deltas[:1]:
        delta = event.get("delta") if isinstance(event.get("delta"), dict) else {}
        if "stop_reason" not in delta or not isinstance(event.get("usage"), dict):
            faults.append(StreamFault(END, n, f"message_delta without its stop_reason and usage ({event!r})"))
    stops = [n for n, e in events if e.get("type") == "message_stop"]
    if stops != [count - 1]:
        faults.append(StreamFault(END, stops[0] if stops else None,
                                  "message_stop is not the last event" if stops else "no message_stop event"))
    elif deltas and deltas[-1][0] > stops[0]:
        faults.append(StreamFault(END, deltas[-1][0], "message_delta after message_stop"))
    return faults


STREAM_RULES = StreamRules(RULES, stream_faults)
