"""OpenAI Responses histories for the kernel and memory contracts: turns as sent, tool loops, persisted rounds.

Turns are those of :func:`harness.testing.responses_streams.turns` as a
provider under ``store: false`` sends them (:func:`as_sent`): every reasoning
item carries its ``encrypted_content`` and is followed by the output item it
preceded. Item and call ids are unique across a whole loop and across the
turns of a session.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from harness.clip import shown
from harness.rules.responses_history import item_type
from harness.testing.anthropic_history import texts
from harness.testing.responses_streams import turns
from harness.testing.scripted import cut_calls, endings, tool_outputs
from harness.wire.responses_events import done_item, items_of

# What a user asks: never blank.
_questions = st.text(min_size=1, max_size=20).filter(str.strip)
# Each turn's ids are numbered from its own block of numbers (turns hold at most this many items).
_ID_BLOCK = 20


def as_sent(turn: dict) -> dict:
    """``turn`` as a store-false provider sends it: each reasoning item encrypted and followed by an output item."""
    blocks = []
    for n, block in enumerate(turn["blocks"]):
        if block["type"] == "reasoning":
            after = turn["blocks"][n + 1] if n + 1 < len(turn["blocks"]) else None
            if after is None or after["type"] == "reasoning":
                continue
            block = {**block, "signature": block["signature"] or "gAAAAABo"}
        blocks.append(block)
    return {**turn, "blocks": blocks}


def calls_of(turn: dict) -> list[dict]:
    return [b for b in turn["blocks"] if b["type"] == "tool_call"]


def _says_something(turn: dict) -> dict:
    """A final answer with no item at all is no answer: it gets one message item."""
    if turn["blocks"]:
        return turn
    return {**turn, "blocks": [{"type": "text", "text": "Done.", "item_id": "msg_answer"}]}


@st.composite
def tool_loops(draw, max_rounds: int = 3, first_turn: int = 0) -> list[dict]:
    """The turns of one agent turn: 1..``max_rounds`` rounds with calls, then an answer without calls.

    Each round with calls ends as real endpoints end one (:func:`harness.testing.scripted.endings`).
    """
    rounds = draw(st.integers(1, max_rounds))
    loop = [draw(endings(as_sent(draw(turns(max_calls=4, max_others=3, min_calls=1,
                                            first_id=(first_turn + k) * _ID_BLOCK))), "openai-responses"))
            for k in range(rounds)]
    answer = as_sent(draw(turns(max_calls=0, max_others=3, first_id=(first_turn + rounds) * _ID_BLOCK)))
    return loop + [_says_something(answer)]


@st.composite
def persisted_rounds(draw, min_turns: int = 1, max_turns: int = 2) -> list[dict]:
    """Persisted events of ``min_turns``..``max_turns`` turns, one per round (:mod:`harness.adapter`).

    Each round's results answer its calls in any order, any of them empty.
    """
    stamp = draw(st.floats(min_value=1.0, max_value=4e9, allow_nan=False))
    events: list[dict] = []
    for _ in range(draw(st.integers(min_turns, max_turns))):
        for k, turn in enumerate(draw(tool_loops(max_rounds=2, first_turn=len(events) + 1))):
            results = [{"tool_call_id": c["id"], "name": c["name"], "content": draw(texts)}
                       for c in draw(st.permutations(calls_of(turn)))]
            events.append({"input": draw(_questions) if k == 0 else None, "blocks": turn["blocks"],
                           "tool_results": results, "timestamp": stamp})
    return events


def wire_input(events: list[dict]) -> list[dict]:
    """Persisted rounds as the ``input`` a correct renderer writes: question, the round's items, one output per call."""
    items: list[dict] = []
    for event in events:
        if event.get("input"):
            items.append({"type": "message", "role": "user", "content": event["input"]})
        items += [done_item(item) for item in items_of(event)]
        items += [{"type": "function_call_output", "call_id": r["tool_call_id"], "output": r["content"]}
                  for r in event["tool_results"]]
    return items


def is_question(item: object) -> bool:
    return item_type(item) == "message" and item.get("role") == "user"


def is_output(item: object) -> bool:
    return item_type(item) == "function_call_output"


def model_runs(items: list) -> list[list]:
    """The model's items of an ``input``, one list per round: each run of items between questions and outputs."""
    runs: list[list] = []
    after_model = False
    for item in items:
        model = not (is_question(item) or is_output(item))
        if model and after_model:
            runs[-1].append(item)
        elif model:
            runs.append([item])
        after_model = model
    return runs


# --- how the tool-round contract reads a Responses request (harness.testing.formats, the row's tool_rounds) --------

# The sub-rules item_changes reports on, the opaque values first: a change of shape never hides one lost or moved.
ITEM_RULES = ("items", "encrypted", "types", "ids", "summaries", "calls", "arguments", "texts")


def _arguments(item: dict):
    try:
        return json.loads(item.get("arguments") or "{}")
    except (TypeError, json.JSONDecodeError):
        return item.get("arguments")


def _texts(parts: object) -> object:
    """The texts of a list of parts, in order (a string content is its one text); any other value as it is."""
    if isinstance(parts, str):
        return [parts]
    if isinstance(parts, list) and all(isinstance(p, dict) for p in parts):
        return [p.get("text") for p in parts]
    return parts


def _says_nothing(item: object) -> bool:
    """A message item without any text: it carries nothing the model reads, so a replay may leave it out or keep it."""
    if not (isinstance(item, dict) and item_type(item) == "message"):
        return False
    content = item.get("content")
    return content == "" or isinstance(content, list) and not any(
        isinstance(p, dict) and p.get("text") for p in content)


def item_changes(items: object, turn: dict) -> dict[str, str]:
    """How ``items`` differ from ``turn``'s output items written back, by sub-rule (:data:`ITEM_RULES`); absent: none.

    ``items``: a list of objects; ``encrypted``: each reasoning item's
    ``encrypted_content``, in order, byte for byte; ``types``: the item types
    in order; ``ids``: each item's id; ``summaries``: each reasoning summary's
    texts; ``calls``: each call's ``call_id`` and name; ``arguments``: each
    call's arguments as a JSON value; ``texts``: each message's texts. A
    message item without text may be left out or kept (the wire tells nothing
    apart); every other item is there.
    """
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        return {"items": f"{shown(items)}, but should be a list of input items, each an object"}
    want = [w for w in map(done_item, items_of(turn)) if not _says_nothing(w)]
    items = [i for i in items if not _says_nothing(i)]
    changes = {}
    enc = ([i.get("encrypted_content") for i in items if item_type(i) == "reasoning"],
           [w.get("encrypted_content") for w in want if w["type"] == "reasoning"])
    if enc[0] != enc[1]:
        changes["encrypted"] = f"the reasoning items' encrypted_content, in order, is {enc[0]}, but should be {enc[1]}"
    got_types = [item_type(i) for i in items]
    if got_types != [w["type"] for w in want]:
        changes["types"] = f"item types in order {got_types}, expected {[w['type'] for w in want]}"
    pairs = list(zip(items, want))
    found = {
        "ids": ("item ids (got, expected) differ", [(g.get("id"), w["id"]) for g, w in pairs if g.get("id") != w["id"]]),
        "summaries": ("reasoning summaries (got, expected) differ",
                      [(g.get("summary"), w["summary"]) for g, w in pairs if w["type"] == "reasoning"
                       and _texts(g.get("summary")) != _texts(w["summary"])]),
        "calls": ("function calls (call_id, name got; expected) differ",
                  [(g.get("call_id"), g.get("name"), w["call_id"], w["name"]) for g, w in pairs
                   if w["type"] == "function_call" and (g.get("call_id"), g.get("name")) != (w["call_id"], w["name"])]),
        "arguments": ("function call arguments (got, expected) are not the same JSON value",
                      [(g.get("arguments"), w["arguments"]) for g, w in pairs
                       if w["type"] == "function_call" and _arguments(g) != _arguments(w)]),
        "texts": ("message texts (got, expected) differ",
                  [(g.get("content"), w["content"]) for g, w in pairs if w["type"] == "message"
                   and _texts(g.get("content")) != _texts(w["content"])]),
    }
    changes |= {rule: f"{what}: {differ}" for rule, (what, differ) in found.items() if differ}
    return changes


def answer_faults(items: list, turns: list[dict], outputs: list[list[set[str]]]) -> list[str]:
    """What is wrong with the outputs: each call answered once, after its round's items and before the next round's,
    with one of ``outputs[k][j]`` (the texts call ``j`` of round ``k`` may carry)."""
    wrong = []
    position = {id(item): n for n, item in enumerate(items)}
    runs = model_runs(items)
    for k, (run, turn) in enumerate(zip(runs, turns)):
        end = position[id(run[-1])]
        nxt = position[id(runs[k + 1][0])] if k + 1 < len(runs) else len(items)
        between = [i for i in items[end + 1:nxt] if is_output(i)]
        ids = sorted(str(o.get("call_id")) for o in between)
        want = sorted(c["id"] for c in calls_of(turn))
        if ids != want:
            wrong.append(f"round {k + 1}: outputs for {shown(ids)} after its items, expected one per call {want}")
            continue
        by_id = {o.get("call_id"): o.get("output") for o in between}
        wrong += [f"round {k + 1}, {c['id']}: output {shown(by_id[c['id']])}, expected one of {shown(sorted(outputs[k][j]))}"
                  for j, c in enumerate(calls_of(turn)) if by_id[c["id"]] not in outputs[k][j]]
    return wrong


def _said(content: object) -> object:
    """What a user message says: its string, or its text parts joined (``input_text`` parts)."""
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content


def questions(items: list) -> list:
    """What the user messages of an ``input`` say, in order."""
    return [_said(i.get("content")) for i in items if is_question(i)]


def cut_call_faults(items: list, turn: dict) -> list[str]:
    """What is wrong with an ``input`` sending back ``turn``, a round with a call whose arguments were cut off: each
    call replayed with its ``call_id``, name and arguments byte for byte, and the cut call answered once."""
    made = [(c["id"], c["name"], c["arguments"]) for c in calls_of(turn)]
    replayed = [(i.get("call_id"), i.get("name"), i.get("arguments")) for i in items
                if isinstance(i, dict) and i.get("type") == "function_call"]
    if replayed != made:
        return [f"the calls are replayed as {shown(replayed)}, but the model made them {shown(made)}: each call's "
                "call_id, name and arguments go back byte for byte, cut ones included"]
    faults = []
    for cut in cut_calls(calls_of(turn)):
        outputs = [i.get("output") for i in items if is_output(i) and i.get("call_id") == cut["id"]]
        if not (len(outputs) == 1 and isinstance(outputs[0], str) and outputs[0].strip()):
            faults.append(f"the cut call {cut['id']} is answered with {shown(outputs)}; it should get one output: what "
                          f"the tool returned, {sorted(tool_outputs(cut))}, or an error text the model can read")
    return faults
