"""Persisted events for the memory contracts: a Hypothesis strategy and a field-by-field diff.

Texts are any unicode Hypothesis draws (quotes, newlines, astral characters,
long runs, empty strings); a round has up to three tool calls, each with its
result, the results in any order relative to their calls (a concurrent batch
finishes in any order) and any of them empty (a tool that returns nothing).
Lists of events share timestamps as often as not (rounds persisted within one
clock tick).
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from harness.clip import shown

FIELDS = ("input", "response", "reasoning", "tool_calls", "tool_results", "tools_used", "timestamp")

_name = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=10)
_arguments = st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=8), max_size=3)
real_timestamps = st.floats(min_value=1.0, max_value=4e9, allow_nan=False)


@st.composite
def events(draw, timestamps=real_timestamps, reasoning=st.none() | st.text()) -> dict:
    n = draw(st.integers(0, 3))
    names = draw(st.lists(_name, min_size=n, max_size=n))
    calls = [
        {"id": f"call_{k}_{draw(_name)}", "name": name, "arguments": json.dumps(draw(_arguments))}
        for k, name in enumerate(names)
    ]
    return {
        "input": draw(st.text()),
        "response": draw(st.text()),
        "reasoning": draw(reasoning),
        "tool_calls": calls,
        "tool_results": [{"tool_call_id": call["id"], "content": draw(st.text())}
                         for call in draw(st.permutations(calls))],
        "tools_used": sorted(set(names)),
        "timestamp": draw(timestamps),
    }


@st.composite
def event_lists(draw, min_size: int = 1, max_size: int = 3, **kwargs) -> list[dict]:
    """Several events whose timestamps are drawn from a pool of one or two: collisions are the rule, not luck."""
    pool = draw(st.lists(real_timestamps, min_size=1, max_size=2))
    return draw(st.lists(events(timestamps=st.sampled_from(pool), **kwargs), min_size=min_size, max_size=max_size))


def _normal(field: str, value):
    # "" and None both mean "no reasoning"; every other field compares as is.
    return (value or None) if field == "reasoning" else value


def differences(want: dict, got: dict, fields: tuple[str, ...] = FIELDS) -> list[str]:
    """Each of ``fields`` whose value in ``got`` is not the one in ``want``, as a readable line."""
    return [
        f"{field}={shown(got.get(field))}, but should be {shown(want.get(field))}"
        for field in fields
        if _normal(field, got.get(field)) != _normal(field, want.get(field))
    ]
