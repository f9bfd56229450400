"""The toy format's strategies row (entry point group ``harness.format_strategies``): any text and call blocks,
each value cut into any pieces, the blocks opened in any order; and its kernel's tool loops and persisted rounds."""

from __future__ import annotations

from hypothesis import strategies as st

from harness.testing.formats import Source, Strategies, ToolRounds
from harness.testing.scripted import ended, endings
from toy_format import history
from toy_format.codec import Cut
from toy_format.spec import NAME


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@st.composite
def _block(draw, k: int) -> dict:
    if draw(st.booleans()):
        return {"type": "text", "text": draw(_TEXT)}
    return {"type": "tool_call", "id": f"call_{k}", "name": f"tool_{k}",
            "arguments": draw(st.sampled_from(['{}', '{"city": "Zürich"}', '{"n": [1, 2]}']))}


def _pieces(value: str, cuts: list[int]) -> tuple[str, ...]:
    edges = [0, *sorted(c % (len(value) + 1) for c in cuts), len(value)]
    return tuple(value[a:b] for a, b in zip(edges, edges[1:]))


@st.composite
def streamed_turns(draw) -> tuple[dict, Cut]:
    count = draw(st.integers(0, 4))
    blocks = [draw(_block(k)) for k in range(count)]
    turn = {"blocks": blocks, "stop_reason": draw(st.sampled_from(["end_turn", "tool_use"])), "usage": None}
    pieces = tuple(_pieces(b.get("text", b.get("arguments", "")), draw(st.lists(st.integers(0, 40), max_size=3)))
                   for b in blocks)
    order = tuple(draw(st.permutations(range(count))))
    return turn, Cut(pieces=pieces, order=order)


_PINNED = ({"blocks": [{"type": "text", "text": "Two calls:"},
                       {"type": "tool_call", "id": "call_a", "name": "read", "arguments": '{"path": "a"}'},
                       {"type": "tool_call", "id": "call_b", "name": "read", "arguments": '{"path": "b"}'}],
            "stop_reason": "tool_use", "usage": None},
           Cut(pieces=(("Two ", "calls:"), ('{"path":', ' "a"}'), ("", '{"path": "b"}')), order=(2, 0, 1)))

@st.composite
def tool_loops(draw, turn: int = 0) -> list[dict]:
    """One turn's rounds of parallel calls (text beside them or none, ended every way the row says), then an answer."""
    loop = []
    for r in range(draw(st.integers(1, 2))):
        calls = [{"type": "tool_call", "id": f"call_{turn}_{r}_{k}", "name": draw(st.sampled_from(["read", "list"])),
                  "arguments": draw(st.sampled_from(["", '{}', '{"path": "a"}']))} for k in range(draw(st.integers(1, 3)))]
        texts = [{"type": "text", "text": t} for t in draw(st.lists(_TEXT, max_size=1))]
        loop.append(draw(endings({"blocks": texts + calls, "stop_reason": "tool_use", "usage": None}, NAME)))
    return loop + [{"blocks": [{"type": "text", "text": draw(_TEXT)}], "stop_reason": "end_turn", "usage": None}]


@st.composite
def resumed(draw) -> list[dict]:
    """Persisted rounds of one to three turns, the latest possibly cut inside its loop."""
    events: list[dict] = []
    turns = draw(st.integers(1, 3))
    for t in range(turns):
        loop = draw(tool_loops(turn=t))
        loop = loop[:draw(st.integers(1, len(loop)))] if t == turns - 1 else loop
        events += [{"input": draw(_TEXT.filter(str.strip)) if k == 0 else None, "blocks": turn["blocks"],
                    "tool_results": [{"tool_call_id": c["id"], "name": c["name"], "content": draw(_TEXT)}
                                     for c in history.calls_of(turn["blocks"])], "timestamp": 1.0}
                   for k, turn in enumerate(loop)]
    return events


_ROUND = {"blocks": _PINNED[0]["blocks"], "stop_reason": "tool_use", "usage": None}
_ANSWER = {"blocks": [{"type": "text", "text": "a and b read."}], "stop_reason": "end_turn", "usage": None}

TOOL_ROUNDS = ToolRounds(
    loops=Source(tool_loops(), ([ended(_ROUND, NAME, 1), _ANSWER],)),  # the round ended with no reason, a usage
    question="Read a and b?",
    tools=("read",),
    history=lambda body: body.get("messages") if isinstance(body, dict) and isinstance(body.get("messages"), list)
    else [],
    body=lambda messages: {"messages": messages},
    model_turns=history.model_turns,
    changes=history.changes,
    unanswered=history.unanswered,
    questions=history.questions,
    refusals=history.refusals,
    by_place=True,
    resumed=Source(resumed(), ([
        {"input": "Read a and b?", "blocks": _ROUND["blocks"], "timestamp": 1.0,
         "tool_results": [{"tool_call_id": "call_a", "name": "read", "content": "A"},
                          {"tool_call_id": "call_b", "name": "read", "content": ""}]},
        {"input": None, "blocks": _ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
        {"input": "And c?", "blocks": [{"type": "tool_call", "id": "call_c", "name": "read", "arguments": ""}],
         "tool_results": [{"tool_call_id": "call_c", "name": "read", "content": "C"}], "timestamp": 2.0},
    ],)),
)

STRATEGIES = Strategies(streamed_turns=Source(streamed_turns(), (_PINNED,)), tool_rounds=TOOL_ROUNDS)
