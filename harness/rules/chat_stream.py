"""The layout of a chat completions stream as OpenAI emits it.

Every chunk is a ``chat.completion.chunk`` of one ``id`` with a ``choices``
list (empty on the usage chunk); each choice's first delta carries the role;
a tool call's first fragment names it (``index``, ``id``, ``type``,
``function.name``) and its later fragments carry only its ``index`` and
argument pieces, each call at an index of its own; each choice finishes once
(``finish_reason``) and sends nothing after; ``data: [DONE]`` ends the body.
"""

from __future__ import annotations

from harness.rules.stream_faults import StreamFault, StreamRules, not_objects

CHUNKS = "chat-stream-chunks"
ROLE = "chat-stream-role"
CALLS = "chat-stream-call-fragments"
FINISH = "chat-stream-finish"
DONE = "chat-stream-done"
RULES = (CHUNKS, ROLE, CALLS, FINISH, DONE)

SENTINEL = "[DONE]"
_HEAD = ("id", "type")  # a call's identity keys beside function.name


def stream_faults(values: list) -> list[StreamFault]:
    """Every fault of a chat stream's event values."""
    last = len(values) - 1
    chunks = [(n, v) for n, v in enumerate(values) if isinstance(v, dict)]
    faults = not_objects(CHUNKS, values, lambda n, v: v == SENTINEL and n == last)
    if not values or values[-1] != SENTINEL:
        faults.append(StreamFault(DONE, None, "the body does not end with data: [DONE]"))
    faults += [StreamFault(DONE, n, "data: [DONE] before the end of the body")
               for n, v in enumerate(values) if v == SENTINEL and n != last]
    return [*faults, *_chunks(chunks), *_choices(chunks)]


def _chunks(chunks: list) -> list[StreamFault]:
    faults = []
    ids = {c.get("id") for _, c in chunks}
    if len(ids) > 1 or None in ids:
        faults.append(StreamFault(CHUNKS, None, f"the chunks carry ids {sorted(map(repr, ids))}; one id names them all"))
    for n, chunk in chunks:
        if chunk.get("object") != "chat.completion.chunk" or not isinstance(chunk.get("choices"), list):
            faults.append(StreamFault(CHUNKS, n, f"a chunk with object {chunk.get('object')!r} and choices "
                                      f"{chunk.get('choices', 'missing')!r}; expected a chat.completion.chunk with a "
                                      "choices list"))
    return faults


def _choices(chunks: list) -> list[StreamFault]:
    faults: list[StreamFault] = []
    seen: set[object] = set()
    finished: set[object] = set()
    calls: dict[tuple, object] = {}  # (choice, call index) -> the call's id
    for n, chunk in chunks:
        for choice in chunk.get("choices") if isinstance(chunk.get("choices"), list) else ():
            if not isinstance(choice, dict):
                continue
            which, delta = choice.get("index"), choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
            if which in finished and (delta or choice.get("finish_reason")):
                faults.append(StreamFault(FINISH, n, f"choice {which!r} goes on after its finish_reason"))
            if which not in seen and delta.get("role") != "assistant":
                faults.append(StreamFault(ROLE, n, f"choice {which!r}'s first delta has role {delta.get('role')!r}, "
                                          "expected 'assistant'"))
            seen.add(which)
            faults += _fragments(n, which, delta.get("tool_calls"), calls)
            if choice.get("finish_reason") is not None:
                finished.add(which)
    faults += [StreamFault(FINISH, None, f"choice {which!r} never sends a finish_reason")
               for which in sorted(seen - finished, key=repr)]
    return faults


def _fragments(n: int, which: object, fragments: object, calls: dict) -> list[StreamFault]:
    faults = []
    for fragment in fragments if isinstance(fragments, list) else ():
        if not isinstance(fragment, dict) or not isinstance(fragment.get("index"), int):
            faults.append(StreamFault(CALLS, n, f"a tool call fragment without an integer index: {fragment!r}"))
            continue
        function = fragment.get("function") if isinstance(fragment.get("function"), dict) else {}
        key = (which, fragment["index"])
        if key not in calls:
            calls[key] = fragment.get("id")
            if not (isinstance(fragment.get("id"), str) and fragment.get("type") == "function"
                    and isinstance(function.get("name"), str)):
                faults.append(StreamFault(CALLS, n, f"call {fragment['index']}'s first fragment lacks its id, type "
                                          f"'function' or function.name: {fragment!r}"))
        elif "id" in fragment and fragment["id"] != calls[key]:
            faults.append(StreamFault(CALLS, n, f"call id {fragment['id']!r} at index {fragment['index']}, which "
                                      f"call {calls[key]!r} holds: each call takes an index of its own"))
        elif any(k in fragment for k in _HEAD) or "name" in function:
            faults.append(StreamFault(CALLS, n, f"a later fragment of call {calls[key]!r} repeats its identity: "
                                      f"{fragment!r}; only the first carries id, type and name"))
    return faults


STREAM_RULES = StreamRules(RULES, stream_faults)
