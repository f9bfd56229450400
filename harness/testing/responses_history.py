"""OpenAI Responses histories for the kernel and memory contracts: turns as sent, tool loops, persisted rounds.

Turns are those of :func:`harness.testing.responses_streams.turns` as a
provider under ``store: false`` sends them (:func:`as_sent`): every reasoning
item carries its ``encrypted_content`` and is followed by the output item it
preceded. Item and call ids are unique across a whole loop and across the
turns of a session.
"""

from __future__ import annotations

from hypothesis import strategies as st

from harness.rules.responses_history import item_type
from harness.testing.anthropic_history import texts
from harness.testing.responses_streams import turns
from harness.testing.scripted import endings
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
