"""Contract: rendered history gives each round's tool results back in the order they were persisted, and nowhere else.

Incident: `batch-path-pairing`: the pairing of calls and results is what a
history loses first; a renderer that reorders a round's results (a reversed
list, a sort, a set) sends a history that differs from the one the kernel sent
live, and an agent that reads results back by position hands each call
another call's output.

Rule: for persisted rounds (several turns, each tool rounds and an answer,
with or without thinking; each round's results persisted in any order
relative to its calls, any of them empty), ``render_history(events)`` gives,
for every round:

- the ``tool_result`` blocks that open the next user message carry the
  round's results' ids as a list, in the persisted order;
- their contents are the persisted contents, in the same order;
- and no ``tool_result`` block anywhere else: the history holds as many
  as the rounds persisted, each id once.

Each part is its own assertion. The events are left as they were.

Level: robust: the strict form of the pairing sub-rule of
`test_anthropic_history_render.py`, where Anthropic pairs results by id in
any order. A kernel that resumes a session from storage needs it: the
rendered history must be the one it sent live (Anthropic's prompt cache
matches the exact prefix, and newer models check that nothing before a kept
thinking block changed), and code that reads results by position pairs them
with the wrong calls.

Production fingerprint: every resumed session misses the prompt cache on its
first request; in a tool log, parallel calls whose outputs are swapped after a
restart and right before it.
"""

import copy

import pytest
from hypothesis import example, given

from harness.clip import clip_json, shown
from harness.testing import anthropic_persisted_rounds, content_text
from harness.testing.anthropic_history import INTERLEAVED_ANSWER, INTERLEAVED_TURN, content_blocks
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.robust, pytest.mark.formats("anthropic")]

# Three results persisted out of call order (the batch finished in another order), one of them empty.
PINNED = [
    {"input": "Weather and folder?", "blocks": INTERLEAVED_TURN["blocks"], "timestamp": 1731300000.0,
     "tool_results": [{"tool_call_id": "toolu_03", "content": "a.txt"}, {"tool_call_id": "toolu_01", "content": ""},
                      {"tool_call_id": "toolu_02", "content": "12\u00b0C"}]},
    {"input": None, "blocks": INTERLEAVED_ANSWER["blocks"], "tool_results": [], "timestamp": 1731300000.0},
]


def _opening_results(messages: list, k: int) -> list[dict]:
    """The ``tool_result`` blocks that open the message after ``messages[k]``, up to the first other block."""
    following = messages[k + 1] if k + 1 < len(messages) else None
    if not isinstance(following, dict) or following.get("role") != "user":
        return []
    opening = []
    for block in content_blocks(following) or ():
        if not isinstance(block, dict) or block.get("type") != "tool_result":
            break
        opening.append(block)
    return opening


def _content(block: dict) -> str:
    return "" if block.get("content") in ("", None) else content_text(block.get("content"))


@given(events=anthropic_persisted_rounds(max_turns=3))
@example(events=PINNED)
def test_each_rounds_results_come_back_in_persisted_order(kernel, events):
    before = copy.deepcopy(events)
    messages = valid(kernel).render_history(events)
    assert events == before, f"render_history changed the events it was given: {clip_json(events, 1000)}"
    assert isinstance(messages, list), f"render_history returned {shown(messages)}, expected a list of messages"
    at = [k for k, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"]
    assert len(at) == len(events), (
        f"{len(at)} assistant messages rendered from {len(events)} rounds, expected one per round; "
        f"{clip_json(messages, 1500)}")
    for n, (k, event) in enumerate(zip(at, events)):
        opening = _opening_results(messages, k)
        where = f"round {n + 1}: {clip_json(messages[k:k + 2], 1200)}"
        got = [b.get("tool_use_id") for b in opening]
        want = [r["tool_call_id"] for r in event["tool_results"]]
        assert got == want, f"the next user message opens with results for {got}, expected {want} in order; {where}"
        got = [_content(b) for b in opening]
        want = [r["content"] for r in event["tool_results"]]
        assert got == want, f"the opening results' contents are {shown(got)}, expected {shown(want)}; {where}"
    placed = [b.get("tool_use_id") for m in messages if isinstance(m, dict) and m.get("role") == "user"
              for b in content_blocks(m) or () if isinstance(b, dict) and b.get("type") == "tool_result"]
    persisted = [r["tool_call_id"] for e in events for r in e["tool_results"]]
    assert sorted(placed) == sorted(persisted), (
        f"the history holds tool_result blocks for {placed}, expected exactly one per persisted result "
        f"{persisted}; {clip_json(messages, 1500)}")
