"""The contracts' shared helpers fail an assertion on a value of any type, never crash on it.

A helper that raises ``TypeError``, ``AttributeError`` or ``KeyError`` on what
an adapter returned makes the contract's run an error ("invalid") where the
adapter's bug should have killed it. Each helper is given a value it holds
right (the format's pinned turns, written as its wire) with one place at a
time replaced by a value of another type: it passes, or fails an assertion;
nothing else.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator

import pytest

from harness.contracts.anthropic_blocks_kept import assert_blocks_kept
from harness.contracts.anthropic_rounds import as_sent
from harness.contracts.block_checks import assert_same_turn
from harness.contracts.gemini_checks import assert_same_gemini_turn
from harness.contracts.gemini_parts_kept import assert_parts_kept
from harness.contracts.responses_checks import assert_items_kept, assert_same_items
from harness.formats import SPECS
from harness.rules.chat_request import declared_tools
from harness.testing.anthropic_history import wire_message
from harness.testing.formats import STRATEGIES
from harness.testing.gemini_history import wire_content
from harness.wire.responses_events import done_item, items_of

WRONG = (None, 1, 2.5, True, "x", [], {}, [None], ["x"], {"a": None})


def _places(value: object, at: tuple = ()) -> Iterator[tuple]:
    yield at
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _places(inner, (*at, key))
    elif isinstance(value, list):
        for k, inner in enumerate(value):
            yield from _places(inner, (*at, k))


def _with(value: object, at: tuple, new: object) -> object:
    if not at:
        return new
    changed = copy.deepcopy(value)
    holder = changed
    for step in at[:-1]:
        holder = holder[step]
    holder[at[-1]] = new
    return changed


def _turns(format: str) -> list[dict]:
    return [turn for turn, _ in STRATEGIES[format].streamed_turns.pinned]


# (helper, the value it holds right, what it is compared with), for each helper and format.
CASES: dict[str, Callable[[], list[tuple[Callable, object, object]]]] = {
    "assert_same_turn": lambda: [(assert_same_turn, t, t) for f in STRATEGIES if STRATEGIES[f].streamed_turns
                                 for t in _turns(f)],
    "assert_same_gemini_turn": lambda: [(assert_same_gemini_turn, t, t) for t in _turns("gemini")],
    "assert_parts_kept": lambda: [(assert_parts_kept, wire_content(t)["parts"], wire_content(t)["parts"])
                                  for t in _turns("gemini")],
    "assert_same_items": lambda: [(assert_same_items, t, t) for t in _turns("openai-responses")],
    "assert_items_kept": lambda: [(assert_items_kept, [done_item(i) for i in items_of(t)], t)
                                  for t in _turns("openai-responses")],
    "assert_blocks_kept": lambda: [(assert_blocks_kept, wire_message(t)["content"], wire_message(t)["content"])
                                   for t in _turns("anthropic")],
    "as_sent": lambda: [(lambda got, loop, where: as_sent(got, loop), {"model": "m", "messages": [], "thinking": {}},
                         [{"blocks": [{"type": "text", "text": "hi"}]}])],
    "chat declared_tools": lambda: [(lambda got, want, where: declared_tools(got),
                                     {"tools": [{"type": "function", "function": {"name": "a", "parameters": {}}}]},
                                     None)],
    "request_refusals": lambda: [(lambda got, want, where, f=f: SPECS[f].request_refusals(got), body, None)
                                 for f, body in {"chat": {"model": "m", "messages": [{"role": "user"}]},
                                                 "anthropic": {"model": "m", "max_tokens": 1, "messages": []},
                                                 "openai-responses": {"model": "m", "input": []},
                                                 "gemini": {"contents": [{"parts": [{"text": "q"}]}]}}.items()],
}


@pytest.mark.parametrize("helper", sorted(CASES))
def test_a_wrong_type_anywhere_fails_an_assertion_never_a_crash(helper):
    crashes = []
    for check, right, other in CASES[helper]():
        for at in list(_places(right)):
            for wrong in WRONG:
                try:
                    check(_with(right, at, wrong), other, "")
                except AssertionError:
                    pass
                except Exception as exc:  # noqa: BLE001 (what this test looks for)
                    crashes.append(f"{'.'.join(map(str, at)) or '(whole)'} = {wrong!r}: {type(exc).__name__}: {exc}")
    assert not crashes, f"{helper} crashed on {len(crashes)} value(s) of another type:\n  " + "\n  ".join(crashes[:10])
