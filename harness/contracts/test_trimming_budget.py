"""Contract: trimming cuts the oldest whole turns, no more than needed, once for good, and never the caller's list.

Incident: incident `batch-path-pairing`: what the trimmer keeps is exactly
what the provider sees next. A trimmer that leaves a history over its own
budget trims it again on the next round, and the round after, so the
conversation shrinks every round (a trimmed history that trimming changes
again); one that drops more than it must loses turns that fitted, and the
agent forgets what the user said two minutes ago; one that edits the list it
was given rewrites the stored conversation behind the kernel's back.

Rule: for any history (a system prompt or none, short or long, a history that
opens with an assistant message, system messages between turns, tool rounds)
and any budget
from 1 to far above its size:

- the trimmed history is the leading system messages followed by an unbroken
  tail of the history: whole messages, unchanged, in their order;
- trimming the trimmed history again with the same budget gives it back
  unchanged; and on the next round's input (the history with its latest turn,
  trimmed after the history of the round before it was) trimming gives what
  it gives for that input asked first, and that again gives it back
  unchanged, with the drawn budget and with a budget of 1 (trimming is a
  function of the history and the budget: a trimmer that carries a cut over
  from one round to the next keeps what the next round's budget has no room
  for);
- it keeps what fits: in a history whose oldest turn is nearly all of its
  size, trimmed to a quarter of the smallest budget it is left whole at (the
  adapter's own size unit, found by asking it), the old turn goes and every
  later turn stays, each message whole (the ``reasoning_content`` of older
  kept turns included); and the system prompt counts like any text: a history
  whose long text is its system prompt needs about the budget (within a
  factor of two) the same history needs with that text in its first user
  message;
- the caller's list and its messages are left as they were, and the list
  returned is not the caller's: appending to it changes nothing the caller
  holds.

Level: wire (a request over the context window is refused by every
provider, and the request after trimming must carry the conversation that
happened).

Production fingerprint: the history shrinks by one turn on every request
although nothing was added, or grows past the context window once it was cut
a first time; after one long tool turn the agent has forgotten
the whole conversation; the stored session loses messages each time a request
is built.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_repr
from harness.contracts.test_trimming_pairs import histories
from harness.under_test.invoke import valid

pytestmark = pytest.mark.wire

budgets = st.one_of(st.integers(1, 50), st.integers(1, 5000), st.integers(5000, 10**9))


def _shape(messages: list[dict]) -> str:
    return " | ".join(f"{m.get('role')}:{clip_repr(m.get('content'), 12)}" for m in messages)


def _is_head_and_tail(history: list[dict], trimmed: list[dict]) -> bool:
    head = 0
    while head < len(history) and history[head].get("role") == "system":
        head += 1
    kept_head = min(head, len(trimmed))
    if trimmed[:kept_head] != history[:kept_head]:
        return False
    tail = trimmed[kept_head:]
    return not tail or history[len(history) - len(tail):] == tail


@st.composite
def untidy_histories(draw) -> list[dict]:
    """The trimming histories, sometimes opening with an assistant message, with a long system prompt, or
    carrying system messages inside."""
    history = draw(histories())
    if history and history[0].get("role") == "system" and draw(st.booleans()):
        history[0] = {"role": "system", "content": "Follow the house style. " * draw(st.integers(1, 40))}
    if draw(st.booleans()):
        start = 1 if history and history[0].get("role") == "system" else 0
        history.insert(start, {"role": "assistant", "content": "Welcome back."})
    for _ in range(draw(st.integers(0, 2))):
        users = [n for n, m in enumerate(history) if m.get("role") == "user" and n > 0]
        if users:
            history.insert(draw(st.sampled_from(users)), {"role": "system", "content": "Reminder: be terse."})
    return history


# Pinned for the ci profile (derandomized, it may never draw it): an oldest turn far over any budget in
# characters or tokens, then older turns that carry reasoning and a tool round, then the latest turn. At
# PINNED_BUDGET a trimmer counting either unit drops the oldest turn only; every kept message must stay whole.
PINNED = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "question 0: " + "word " * 4000},
    {"role": "assistant", "content": "answer 0: " + "word " * 4000},
    {"role": "user", "content": "question 1: compare a.txt with b.txt"},
    {"role": "assistant", "content": None, "reasoning_content": "Read a.txt first.", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "read", "arguments": '{"path":"a.txt"}'}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "text of a"},
    {"role": "assistant", "content": "They differ in line 3.", "reasoning_content": "Line 3 differs."},
    {"role": "user", "content": "question 2: which line?"},
    {"role": "assistant", "content": "Line 3.", "reasoning_content": "Said before."},
]
PINNED_BUDGET = 3000
# The same, opening with an assistant message and with a system message between the kept turns.
PINNED_UNTIDY = [PINNED[0], {"role": "assistant", "content": "Welcome back."}, *PINNED[1:7],
                 {"role": "system", "content": "Reminder: be terse."}, *PINNED[7:]]


@given(history=untidy_histories(), budget=budgets)
@example(history=PINNED, budget=PINNED_BUDGET)
@example(history=PINNED_UNTIDY, budget=PINNED_BUDGET)
@example(history=PINNED, budget=128_000)  # within a context window's budget: nothing to trim
def test_trimming_keeps_a_tail_and_is_done_once(memory, history, budget):
    memory = valid(memory)
    before = copy.deepcopy(history)
    trimmed = memory.trim_history(history, budget)
    assert history == before, (
        f"trim_history(history, {budget}) changed the caller's history to {_shape(history)}; it was "
        f"{_shape(before)}"
    )
    assert _is_head_and_tail(history, trimmed), (
        f"trimmed to budget {budget}, the history is {_shape(trimmed)}, but should be its leading system messages "
        f"and an unbroken tail of the input, messages unchanged: {_shape(history)}"
    )
    again = memory.trim_history(copy.deepcopy(trimmed), budget)
    assert again == trimmed, (
        f"trimming the trimmed history again with budget {budget} gave {_shape(again)}, but it should come back "
        f"unchanged: {_shape(trimmed)} (trimmed from {_shape(history)})"
    )
    trimmed.append({"role": "user", "content": "appended by the caller"})
    assert history == before, (
        f"appending to the list trim_history returned changed the caller's history: the returned list is the "
        f"caller's own; history {_shape(history)}"
    )
    _next_round_trims_the_same(memory, history, budget)


def _next_round_trims_the_same(memory, history: list[dict], budget: int) -> None:
    """The history as the next round's input: trimmed first, then after the round before it, then again."""
    before = history[:max(n for n, m in enumerate(history) if m.get("role") == "user")]
    for b in (budget, 1):
        first = memory.trim_history(copy.deepcopy(history), b)
        memory.trim_history(copy.deepcopy(before), b)
        then = memory.trim_history(copy.deepcopy(history), b)
        assert then == first, (
            f"with budget {b}, the history trimmed after the round before it ({_shape(before)}) was gives "
            f"{_shape(then)}, but asked first it gave {_shape(first)}; trimming should depend on the history and the "
            f"budget only (input {_shape(history)})"
        )
        again = memory.trim_history(copy.deepcopy(then), b)
        assert again == then, (
            f"on the next round's input, trimming the trimmed history again with budget {b} gave {_shape(again)}, "
            f"but it should come back unchanged: {_shape(then)} (trimmed from {_shape(history)})"
        )


def _turn(number: int, rounds: int, words: int, reasoning: str | None = None) -> list[dict]:
    """A user message, ``rounds`` tool rounds and an answer; ``reasoning`` on each assistant message if given."""
    thought = {} if reasoning is None else {"reasoning_content": f"{reasoning} ({number})"}
    messages = [{"role": "user", "content": f"question {number}: " + "word " * words}]
    for r in range(rounds):
        cid = f"call_{number}_{r}"
        messages += [
            {"role": "assistant", "content": None, **thought,
             "tool_calls": [{"id": cid, "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": cid, "content": "line " * words},
        ]
    return messages + [{"role": "assistant", "content": f"answer {number}: " + "word " * words, **thought}]


SYSTEM = [{"role": "system", "content": "You are terse."}]
BIG = _turn(0, rounds=40, words=60)  # nearly all of the history, in any unit: characters, tokens or messages
# Older kept turns carry reasoning: what trimming keeps, it keeps whole, reasoning_content included.
SMALL = [_turn(k, rounds=k % 2, words=2, reasoning="Read it first.") for k in (1, 2, 3)]
HISTORY = SYSTEM + BIG + [m for turn in SMALL for m in turn]


def _untouched_from(memory, history: list[dict]) -> int:
    """The smallest budget the adapter leaves ``history`` whole at (trimming is monotone in the budget)."""
    low, high = 1, 2
    while memory.trim_history(copy.deepcopy(history), high) != history:
        low, high = high, high * 2
        assert high < 10**12, "trim_history never left the history whole, whatever the budget"
    while low < high:
        middle = (low + high) // 2
        if memory.trim_history(copy.deepcopy(history), middle) == history:
            high = middle
        else:
            low = middle + 1
    return high


def test_trimming_keeps_every_turn_that_fits(memory):
    memory = valid(memory)
    whole_at = _untouched_from(memory, HISTORY)
    budget = max(1, whole_at // 4)
    trimmed = memory.trim_history(copy.deepcopy(HISTORY), budget)
    kept_big = any(m in trimmed for m in BIG)
    missing = [turn[0]["content"][:10] for turn in SMALL if not all(m in trimmed for m in turn)]
    assert not kept_big and not missing and trimmed[:1] == SYSTEM, (
        f"the history is left whole from budget {whole_at}; trimmed to {budget}, it kept "
        f"{'some' if kept_big else 'none'} of the oldest turn ({len(BIG)} messages, nearly all of its size) and "
        f"lost the later turns {missing}: the oldest turn should go and the three small turns after it, which "
        f"fit, should stay; trimmed: {_shape(trimmed)}"
    )


LONG_TEXT = "Follow the house style guide to the letter. " * 400


def test_trimming_counts_the_system_prompt(memory):
    memory = valid(memory)
    small = [m for turn in SMALL for m in turn]
    in_system = [{"role": "system", "content": LONG_TEXT}, *small]
    in_a_turn = [{"role": "user", "content": LONG_TEXT}, {"role": "assistant", "content": "Noted."}, *small]
    as_system, as_turn = _untouched_from(memory, in_system), _untouched_from(memory, in_a_turn)
    assert as_turn / 2 <= as_system <= as_turn * 2, (
        f"a history whose long text is its system prompt is left whole from budget {as_system}, the same history "
        f"with that text in its first user message from {as_turn}; the system prompt is part of what the provider "
        "counts, so both should need about the same budget"
    )
