"""Contract: trimming an overflowing history never separates a tool call from its result.

Incident: an agent's conversation died for good with HTTP 400 on every
provider (incident `batch-path-pairing`). Trimming was the first suspect: a history cut back on
overflow is the classic way an assistant message with ``tool_calls`` loses its
tool messages, or tool messages lose their call. That time the kernel's log
cleared it ("overflow check ratio=1.21 threshold=1.25": trimming had not run);
the next kernel may not be so lucky. What the trimmer keeps is exactly what
the provider sees next.

Rule: for any history of turns with (parallel) tool calls and any budget, the
trimmed history passes the provider's pairing rule and ends with the most
recent turn, whole. With a budget far below the history's size, trimming must
actually drop something (otherwise this contract never reached the trimmer).

Level: wire (the pairing rule every provider enforces with HTTP 400, and the
turn the next request answers).

Production fingerprint: HTTP 400 "An assistant message with 'tool_calls' must
be followed by tool messages responding to each 'tool_call_id'" or "messages
with role 'tool' must be a response to a preceding message with 'tool_calls'"
right after a long conversation overflowed.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.testing import pairing_violations
from harness.under_test.invoke import valid

pytestmark = pytest.mark.wire

_words = st.text(alphabet="abcdefghij klmnop", max_size=30)
_stem = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=6)


@st.composite
def _turn(draw, number: int) -> list[dict]:
    """A user message, up to two tool rounds of 1-3 parallel calls, and maybe a final answer."""
    messages = [{"role": "user", "content": f"question {number}: {draw(_words)}"}]
    for r in range(draw(st.integers(0, 2))):
        ids = [f"call_{number}_{r}_{k}_{draw(_stem)}" for k in range(draw(st.integers(1, 3)))]
        calls = [{"id": i, "type": "function", "function": {"name": "lookup", "arguments": "{}"}} for i in ids]
        assistant = {"role": "assistant", "content": None, "tool_calls": calls}
        if draw(st.booleans()):
            assistant["reasoning_content"] = draw(_words)
        messages.append(assistant)
        # Providers accept a round's tool messages in any order.
        for call_id in draw(st.permutations(ids)):
            messages.append({"role": "tool", "tool_call_id": call_id, "content": draw(_words)})
    # A turn without a final answer is the history right before the next model round.
    if draw(st.booleans()):
        messages.append({"role": "assistant", "content": f"answer {number}: {draw(_words)}"})
    return messages


@st.composite
def histories(draw) -> list[dict]:
    """An optional system prompt, then 2-4 turns."""
    history = [{"role": "system", "content": "You are terse."}] if draw(st.booleans()) else []
    for number in range(draw(st.integers(2, 4))):
        history += draw(_turn(number))
    return history


def _shape(messages: list[dict]) -> str:
    """A history in one line: roles with their call ids, e.g. ``user | assistant[call_1] | tool(call_1)``."""
    parts = []
    for msg in messages:
        if msg.get("role") == "tool":
            parts.append(f"tool({msg.get('tool_call_id')})")
        elif msg.get("tool_calls"):
            parts.append(f"assistant[{','.join(c.get('id', '?') for c in msg['tool_calls'])}]")
        else:
            parts.append(str(msg.get("role")))
    return " | ".join(parts)


def _latest_turn(history: list[dict]) -> list[dict]:
    last_user = max(n for n, msg in enumerate(history) if msg.get("role") == "user")
    return history[last_user:]


def _trim_twice(memory, history: list[dict], budget: int) -> list[tuple[int, list[dict]]]:
    """The drawn budget, then a budget of 1, which overflows any history and so must trim."""
    trimmed = [(b, memory.trim_history(history, b)) for b in (budget, 1)]
    forced = trimmed[-1][1]
    assert len(forced) < len(history), (
        f"with budget 1 the history of {len(history)} messages came back with {len(forced)}: trimming "
        f"never ran, so this contract did not reach the code it guards\n  input: {_shape(history)}"
    )
    return trimmed


# Pinned for the ci profile: an old turn far over the budget, then a round of parallel calls answered out of
# order and a latest turn that is itself a tool round; at PINNED_BUDGET (characters or tokens) the cut falls
# between whole turns only if the trimmer keeps pairs together.
def _calls(*ids: str) -> list[dict]:
    return [{"id": i, "type": "function", "function": {"name": "lookup", "arguments": "{}"}} for i in ids]


PINNED = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "question 0: " + "word " * 4000},
    {"role": "assistant", "content": None, "tool_calls": _calls("call_0_a")},
    {"role": "tool", "tool_call_id": "call_0_a", "content": "line " * 400},
    {"role": "user", "content": "question 1"},
    {"role": "assistant", "content": None, "reasoning_content": "both", "tool_calls": _calls("call_1_a", "call_1_b")},
    {"role": "tool", "tool_call_id": "call_1_b", "content": "b " * 300},
    {"role": "tool", "tool_call_id": "call_1_a", "content": "a " * 300},
    {"role": "assistant", "content": "answer 1"},
    {"role": "user", "content": "question 2"},
    {"role": "assistant", "content": None, "tool_calls": _calls("call_2_a", "call_2_b")},
    {"role": "tool", "tool_call_id": "call_2_a", "content": "a " * 600},
    {"role": "tool", "tool_call_id": "call_2_b", "content": "b " * 600},
]
PINNED_BUDGET = 1500


@given(history=histories(), budget=st.integers(min_value=1, max_value=5000))
@example(history=PINNED, budget=PINNED_BUDGET)
def test_trimming_never_splits_a_tool_pair(memory, history, budget):
    memory = valid(memory)
    for b, trimmed in _trim_twice(memory, history, budget):
        problems = pairing_violations(trimmed)
        assert not problems, (
            f"trimming to budget {b} broke the tool pairing: {'; '.join(problems)}\n"
            f"  trimmed: {_shape(trimmed)}\n  input:   {_shape(history)}"
        )


@given(history=histories(), budget=st.integers(min_value=1, max_value=5000))
@example(history=PINNED, budget=PINNED_BUDGET)
def test_trimming_keeps_the_latest_turn(memory, history, budget):
    memory = valid(memory)
    latest = _latest_turn(history)
    for b, trimmed in _trim_twice(memory, history, budget):
        assert trimmed[-len(latest) :] == latest, (
            f"trimming to budget {b} did not keep the latest turn whole ({_shape(latest)})\n"
            f"  trimmed: {_shape(trimmed)}\n  input:   {_shape(history)}"
        )
