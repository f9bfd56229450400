"""The toy format's strategies row (entry point group ``harness.format_strategies``): any text and call blocks,
each value cut into any pieces, the blocks opened in any order."""

from __future__ import annotations

from hypothesis import strategies as st

from harness.testing.formats import Source, Strategies
from toy_format.codec import Cut


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

STRATEGIES = Strategies(streamed_turns=Source(streamed_turns(), (_PINNED,)))
