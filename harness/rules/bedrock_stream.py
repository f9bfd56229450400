"""The layout of a Bedrock ConverseStream body as the service emits it.

Each event is one object of one key, its event type, holding its payload (as
:func:`harness.wire.eventstream.events` reads them). ``messageStart {role}``
opens the stream; blocks are keyed by ``contentBlockIndex``, opened in index
order from 0 (deltas of open blocks may interleave): a block's deltas, each delta a union of exactly one member (``text``,
``toolUse.input``, ``reasoningContent``), then its ``contentBlockStop``. Only
a call has a ``contentBlockStart``: AWS's service model makes its ``start`` a
union whose one member is ``toolUse {toolUseId, name}``, so a text or
reasoning block never opens with one. ``messageStop {stopReason}`` follows
every block's stop, and ``metadata`` ends the stream with the ``usage`` and
``metrics`` the model requires. Payloads may carry Bedrock's ``p`` padding.
"""

from __future__ import annotations

from harness.rules.stream_faults import StreamFault, StreamRules, not_objects

EVENTS = "bedrock-stream-events"
START = "bedrock-stream-message-start"
BLOCKS = "bedrock-stream-blocks"
END = "bedrock-stream-end"
RULES = (EVENTS, START, BLOCKS, END)

KINDS = ("messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata")
_DELTAS = {"text": str, "toolUse": dict, "reasoningContent": dict}
_REASONING = ("text", "signature", "redactedContent")
_USAGE = ("inputTokens", "outputTokens", "totalTokens")


def stream_faults(values: list) -> list[StreamFault]:
    """Every fault of a ConverseStream body's event values."""
    faults = not_objects(EVENTS, values)
    events: list[tuple[int, str, dict]] = []
    for n, value in enumerate(values):
        if not isinstance(value, dict):
            continue
        ((kind, payload),) = value.items() if len(value) == 1 else ((None, None),)
        if kind not in KINDS or not isinstance(payload, dict):
            faults.append(StreamFault(EVENTS, n, f"an event that is not one of {', '.join(KINDS)} holding an object: "
                                      f"keys {sorted(map(str, value))}"))
            continue
        events.append((n, kind, payload))
    return [*faults, *_start(events), *_blocks(events), *_end(events, len(values))]


def _start(events: list) -> list[StreamFault]:
    starts = [(n, p) for n, kind, p in events if kind == "messageStart"]
    if not events or events[0][1] != "messageStart":
        return [StreamFault(START, events[0][0] if events else None,
                            f"the stream opens with {events[0][1] if events else 'nothing'}, not messageStart")]
    faults = [StreamFault(START, n, "a second messageStart") for n, _ in starts[1:]]
    n, payload = starts[0]
    if payload.get("role") != "assistant":
        faults.append(StreamFault(START, n, f"messageStart's role is {payload.get('role')!r}, not 'assistant'"))
    return faults


def _block_fault(kind: str, payload: dict, calls: set[int]) -> str | None:
    """What is wrong with one block event's own payload (None: nothing); ``calls``: the blocks started as calls."""
    index = payload["contentBlockIndex"]
    if kind == "contentBlockStart":
        start = payload.get("start")
        use = start.get("toolUse") if isinstance(start, dict) and len(start) == 1 else None
        if not (isinstance(use, dict) and isinstance(use.get("toolUseId"), str) and isinstance(use.get("name"), str)):
            return (f"block {index} starts with {start!r}; a start is a union of exactly one member, toolUse "
                    "{toolUseId, name}, and only a call has one")
    elif kind == "contentBlockDelta":
        delta = payload.get("delta")
        ((member, value),) = delta.items() if isinstance(delta, dict) and len(delta) == 1 else ((None, None),)
        if member not in _DELTAS or not isinstance(value, _DELTAS[member]):
            return f"block {index}'s delta {delta!r} is not a union of exactly one of {', '.join(_DELTAS)}"
        if member == "toolUse" and (index not in calls or not isinstance(value.get("input"), str)):
            return f"block {index}'s toolUse delta {value!r}: input pieces belong to a block started as a call"
        if member != "toolUse" and index in calls:
            return f"block {index} started as a call gets a {member} delta"
        if member == "reasoningContent" and (len(value) != 1 or next(iter(value)) not in _REASONING):
            return f"block {index}'s reasoningContent delta {value!r} is not exactly one of {', '.join(_REASONING)}"
    return None


def _blocks(events: list) -> list[StreamFault]:
    faults: list[StreamFault] = []
    seen: set[int] = set()
    calls: set[int] = set()
    stopped: set[int] = set()
    ended = False
    for n, kind, payload in events:
        if kind == "messageStop":
            ended = True
        if not kind.startswith("contentBlock"):
            continue
        index = payload.get("contentBlockIndex")
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            faults.append(StreamFault(BLOCKS, n, f"{kind} without a contentBlockIndex (it has {index!r})"))
            continue
        if ended or index in stopped:
            faults.append(StreamFault(BLOCKS, n, f"{kind} of block {index} after "
                                      + ("messageStop" if ended else "its contentBlockStop")))
        elif kind == "contentBlockStart" and index in seen:
            faults.append(StreamFault(BLOCKS, n, f"contentBlockStart of block {index} after its first event"))
        elif index not in seen and index != len(seen):
            faults.append(StreamFault(BLOCKS, n, f"block {index} opens after {len(seen)} blocks; blocks open in "
                                      "index order, from 0"))
        fault = _block_fault(kind, payload, calls)
        if fault:
            faults.append(StreamFault(BLOCKS, n, fault))
        elif kind == "contentBlockStart" and index not in seen:
            calls.add(index)
        seen.add(index)
        if kind == "contentBlockStop":
            stopped.add(index)
    faults += [StreamFault(BLOCKS, None, f"block {i} is never stopped") for i in sorted(seen - stopped)]
    return faults


def _end(events: list, count: int) -> list[StreamFault]:
    faults = []
    stops = [(n, p) for n, kind, p in events if kind == "messageStop"]
    if len(stops) != 1:
        faults.append(StreamFault(END, stops[1][0] if stops[1:] else None,
                                  f"{len(stops)} messageStop events; a message ends with exactly one"))
    for n, payload in stops[:1]:
        if not isinstance(payload.get("stopReason"), str):
            faults.append(StreamFault(END, n, f"messageStop without its stopReason ({payload!r})"))
    metadata = [(n, p) for n, kind, p in events if kind == "metadata"]
    if [n for n, _ in metadata] != [count - 1] or (stops and stops[0][0] > metadata[0][0]):
        faults.append(StreamFault(END, metadata[0][0] if metadata else None,
                                  "metadata is not the one last event, after messageStop" if metadata
                                  else "no metadata event"))
    for n, payload in metadata[:1]:
        usage, metrics = payload.get("usage"), payload.get("metrics")
        if not (isinstance(usage, dict) and all(isinstance(usage.get(key), int) for key in _USAGE)
                and isinstance(metrics, dict) and isinstance(metrics.get("latencyMs"), int)):
            faults.append(StreamFault(END, n, f"metadata without its usage ({', '.join(_USAGE)}) and metrics "
                                      f"(latencyMs): {payload!r}"))
    return faults


STREAM_RULES = StreamRules(RULES, stream_faults)
