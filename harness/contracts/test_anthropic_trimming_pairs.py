"""Contract: trimming a Messages history never splits a tool_use from its tool_result, and keeps what it keeps as is.

Incident: a history cut back on overflow is the classic way a call loses its
result or a result its call (incident `batch-path-pairing`); on Anthropic a
trimmer that rewrites what it keeps also loses the thinking of a kept tool
turn (incident `anthropic-thinking-dropped`), and one that starts the history at
an assistant message or at orphan results is refused outright.

Rule: for any Messages history of several turns (tool rounds with
interleaved thinking, answers; the latest turn possibly still in its tool
loop) and any budget, ``trim_history(messages, budget)``:

- leaves no ``tool_use`` without its ``tool_result`` opening the next message
  and no ``tool_result`` without its ``tool_use`` right before;
- starts with a user message and keeps the roles alternating;
- keeps the newest exchange (the latest question and everything after it)
  whole and unchanged;
- keeps every assistant message it keeps unchanged (thinking with its
  signature, redacted data, block order), in the original order;
- with a budget of 1, which overflows any history of two turns, drops
  something (otherwise this contract never reached the trimmer);
- leaves the caller's history as it was.

Level: wire (Anthropic answers a broken pair, a history that starts with the
assistant or with orphan results, and a modified thinking block with 400).

Production fingerprint: right after a long conversation overflowed, HTTP 400
"`tool_use` ids were found without `tool_result` blocks immediately after",
"unexpected `tool_use_id` found in `tool_result` blocks" or "first message
must use the "user" role".
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.rules import anthropic_history as rules
from harness.rules.anthropic_history import refusals
from harness.testing import anthropic_persisted_rounds, anthropic_wire_history
from harness.testing.anthropic_history import INTERLEAVED_ANSWER, INTERLEAVED_TURN
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("anthropic")]


@st.composite
def histories(draw) -> list[dict]:
    """Two or three turns as wire messages, the latest possibly cut inside its tool loop."""
    events = draw(anthropic_persisted_rounds(min_turns=2, max_turns=3))
    starts = [k for k, e in enumerate(events) if e["input"]]
    keep = draw(st.integers(starts[-1] + 1, len(events)))
    return anthropic_wire_history(events[:keep])


_OLD = {"input": "question 0: " + "word " * 1500, "blocks": INTERLEAVED_TURN["blocks"], "timestamp": 1.0,
        "tool_results": [{"tool_call_id": f"toolu_0{k}", "content": "line " * 200} for k in (3, 1, 2)]}
PINNED = anthropic_wire_history([
    _OLD, {"input": None, "blocks": INTERLEAVED_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
    {"input": "question 1", "blocks": [INTERLEAVED_TURN["blocks"][0], {"type": "tool_call", "id": "toolu_11",
                                                                        "name": "list_dir", "arguments": ""}],
     "tool_results": [{"tool_call_id": "toolu_11", "content": "b " * 300}], "timestamp": 2.0},
])
PINNED_BUDGET = 2500


def _shape(messages: list[dict]) -> str:
    parts = []
    for m in messages:
        blocks = m.get("content") if isinstance(m.get("content"), list) else [{"type": "text"}]
        names = (str(b.get("tool_use_id") or b.get("id") or b.get("type")) for b in blocks)
        parts.append(f"{m.get('role')}[{','.join(names)}]")
    return " | ".join(parts)


def _trims(memory, history: list[dict], budget: int) -> list[tuple[int, list[dict]]]:
    memory = valid(memory)
    before = copy.deepcopy(history)
    trimmed = [(b, memory.trim_history(history, b)) for b in (budget, 1)]
    assert history == before, f"trim_history changed the history it was given: now {_shape(history)}"
    forced = trimmed[-1][1]
    assert len(forced) < len(history), (
        f"with budget 1 the history of {len(history)} messages came back with {len(forced)}: trimming never ran, "
        f"so this contract did not reach the code it guards\n  input: {_shape(history)}")
    return trimmed


def _latest_exchange(history: list[dict]) -> list[dict]:
    asks = [k for k, m in enumerate(history) if m["role"] == "user" and any(
        b.get("type") == "text" for b in m["content"])]
    return history[asks[-1]:]


@given(history=histories(), budget=st.integers(min_value=1, max_value=8000))
@example(history=PINNED, budget=PINNED_BUDGET)
def test_trimming_never_splits_a_pair(memory, history, budget):
    for b, trimmed in _trims(memory, history, budget):
        broken = [r.message for r in refusals({"messages": trimmed})
                  if r.rule in (rules.TOOL_USE_ANSWERED, rules.TOOL_RESULT_PAIRED)]
        assert not broken, (f"trimming to budget {b} broke a tool pair: {broken}\n  trimmed: {_shape(trimmed)}\n"
                            f"  input:   {_shape(history)}")


@given(history=histories(), budget=st.integers(min_value=1, max_value=8000))
@example(history=PINNED, budget=PINNED_BUDGET)
def test_trimming_starts_with_the_user_and_alternates(memory, history, budget):
    for b, trimmed in _trims(memory, history, budget):
        broken = [r.message for r in refusals({"messages": trimmed})
                  if r.rule in (rules.FIRST_USER, rules.ROLES_ALTERNATE, rules.CONTENT_NON_EMPTY)]
        assert not broken, (f"trimming to budget {b}: {broken}\n  trimmed: {_shape(trimmed)}\n"
                            f"  input:   {_shape(history)}")


@given(history=histories(), budget=st.integers(min_value=1, max_value=8000))
@example(history=PINNED, budget=PINNED_BUDGET)
def test_trimming_keeps_the_newest_exchange_whole(memory, history, budget):
    latest = _latest_exchange(history)
    for b, trimmed in _trims(memory, history, budget):
        assert trimmed[-len(latest):] == latest, (
            f"trimming to budget {b} did not keep the newest exchange whole and unchanged ({_shape(latest)})\n"
            f"  trimmed: {_shape(trimmed)}\n  input:   {_shape(history)}")


@given(history=histories(), budget=st.integers(min_value=1, max_value=8000))
@example(history=PINNED, budget=PINNED_BUDGET)
def test_trimming_keeps_assistant_messages_unchanged(memory, history, budget):
    original = [m for m in history if m["role"] == "assistant"]
    for b, trimmed in _trims(memory, history, budget):
        kept = [m for m in trimmed if isinstance(m, dict) and m.get("role") == "assistant"]
        rest = iter(original)
        changed = [m for m in kept if not any(m == o for o in rest)]  # in order: each found after the one before
        assert not changed, (
            f"trimming to budget {b} kept assistant messages that are not the history's own, unchanged and in order "
            f"(thinking, signatures, redacted data, block order): {clip_json(changed, 1500)}\n"
            f"  trimmed: {_shape(trimmed)}\n  input:   {_shape(history)}")
