"""Hypothesis strategies for OpenAI Responses streams: neutral turns and the plans that write them.

:func:`turns` draws output items of every type in any order (message items of
one to three parts, reasoning items with zero to three summary parts and an
``encrypted_content`` of any character or none, 0 to 12 function calls with
distinct ids, zero-argument calls); :func:`plans` how a turn is streamed
(values cut anywhere, empty pieces included; the items' events interleaved;
deltas before their item's ``output_item.added``; the data-only form; every
SSE framing). :func:`harness.wire.responses_events.turn_body` writes the pair.
"""

from __future__ import annotations

from hypothesis import strategies as st

from harness.testing.anthropic_streams import any_text, arguments, framings, opaque, pieces_of
from harness.wire.responses_events import Plan, in_order, items_of

_ID = "abcdefghijklmnopqrstuvwxyz0123456789"
_NAME = _ID + "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-"

# Every key is required in the API reference's ResponseUsage object, so the provider always sends all five; every
# request counts an input token at least, so never every count zero (:func:`harness.rules.blocks.no_usage`).
usages = st.one_of(st.none(), st.fixed_dictionaries(
    {"input_tokens": st.integers(1, 200_000),
     "input_tokens_details": st.fixed_dictionaries({"cached_tokens": st.integers(0, 10_000)}),
     "output_tokens": st.integers(0, 64_000),
     "output_tokens_details": st.fixed_dictionaries({"reasoning_tokens": st.integers(0, 10_000)}),
     "total_tokens": st.integers(0, 264_000)}))


def _messages(item_id: str):
    return st.lists(any_text, min_size=1, max_size=3).map(
        lambda texts: [{"type": "text", "text": t, "item_id": item_id} for t in texts])


def _reasoning(item_id: str):
    return st.builds(lambda summary, sig: [{"type": "reasoning", "text": "".join(summary), "signature": sig,
                                            "item_id": item_id, "summary": summary}],
                     st.lists(any_text, max_size=3), st.one_of(st.just(""), opaque))


@st.composite
def turns(draw, max_calls: int = 12, max_others: int = 5, min_calls: int = 0, first_id: int = 0) -> dict:
    """A neutral turn: message, reasoning and function-call items in any order, ``min_calls`` to ``max_calls`` calls.

    Item ids are numbered from ``first_id`` (distinct by their number, any
    characters after it), so the turns of one loop drawn with ids numbered on
    never share one.
    """
    kinds = draw(st.lists(st.sampled_from(["message", "reasoning"]), max_size=max_others))
    count = draw(st.integers(min_calls, max_calls))
    ids = [f"{first_id + k:02d}{draw(st.text(_ID, max_size=6))}" for k in range(count + len(kinds))]
    calls = [[{"type": "tool_call", "id": f"call_{ids[k]}", "name": draw(st.text(_NAME, min_size=1, max_size=12)),
               "arguments": draw(arguments), "item_id": f"fc_{ids[k]}"}]
             for k in range(count)]
    others = [draw(_messages(f"msg_{ids[count + k]}") if kind == "message"
                   else _reasoning(f"rs_{ids[count + k]}")) for k, kind in enumerate(kinds)]
    order = draw(st.permutations([0] * len(others) + [1] * len(calls)))
    sources = [iter(others), iter(calls)]
    return {"blocks": [b for k in order for b in next(sources[k])], "stop_reason": "completed", "usage": draw(usages)}


@st.composite
def interleavings(draw, pieces: tuple, early: bool) -> tuple:
    """Item events of several open items mixed; with ``early`` an item's deltas may come before its ``added``."""
    own = []
    for n, parts in enumerate(pieces):
        deltas = [("delta", n) for part in parts for _ in part]
        at = draw(st.integers(0, len(deltas))) if early else 0
        own.append([*deltas[:at], ("added", n), *deltas[at:], ("done", n)])
    order = draw(st.permutations([n for n, steps in enumerate(own) for _ in steps]))
    taken = [0] * len(own)
    steps = []
    for n in order:
        steps.append(own[n][taken[n]])
        taken[n] += 1
    return tuple(steps)


@st.composite
def plans(draw, turn: dict, interleaved: bool = False, early: bool = False) -> Plan:
    """How ``turn`` is streamed: pieces, data-only form and framing; ``interleaved`` mixes items, ``early`` moves deltas."""
    pieces = tuple(tuple(tuple(draw(pieces_of(value, always=item.kind == "function_call"))) for value in item.values())
                   for item in items_of(turn))
    steps = draw(interleavings(pieces, early)) if interleaved or early else in_order(pieces)
    return Plan(pieces=pieces, steps=steps, named=draw(st.booleans()), framing=draw(framings))


@st.composite
def streamed_turns(draw, max_calls: int = 12, interleaved: bool = False, early: bool = False) -> tuple[dict, Plan]:
    """A turn and a plan that streams it."""
    turn = draw(turns(max_calls))
    return turn, draw(plans(turn, interleaved, early))
