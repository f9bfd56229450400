"""Contract: trimming a history never splits a call from its answer, and keeps what it keeps as is, in every neutral-turn format.

Incident: a history cut back on overflow is the classic way a call loses its
result or a result its call (incident `batch-path-pairing`); a trimmer that
rewrites what it keeps also loses the opaque values of a kept tool turn:
thinking on Anthropic (incident `anthropic-thinking-dropped`), a reasoning
item's ``encrypted_content`` or the reasoning item itself on OpenAI Responses
(`responses-call-without-reasoning`), a ``thoughtSignature`` on Gemini
(`gemini-signature-aggregation`); one that starts the history at the model's
turn or at orphan results is refused outright.

Rule: stated once for every format that persists neutral rounds (a row in
``harness.testing.formats`` with histories and their trimming rules), each
judged by its own wire rules. For any history of several turns as a correct
renderer writes it (tool rounds with reasoning, answers; the latest turn
possibly still in its tool loop) and any budget, ``trim_history(messages,
budget)``:

- leaves every call answered right after its turn and every answer with its
  call (Anthropic: ``tool_use`` / ``tool_result``; Responses:
  ``function_call`` / ``function_call_output``, each reasoning item still
  followed by its item; Gemini: as many ``functionResponse`` parts as calls,
  each call turn after a user content);
- starts with a user's question (Anthropic: and keeps the roles
  alternating);
- keeps the newest exchange (the latest question and everything after it)
  whole and unchanged;
- keeps every model message, item or content it keeps unchanged (opaque
  values, order), in the original order;
- with a budget of 1, which overflows any history of two turns, drops
  something (otherwise this contract never reached the trimmer);
- leaves the caller's history as it was;
- is the same on the next round's input (the history with its newest
  exchange) asked first and asked after the history of the round before it
  (the history up to the newest question) was trimmed, and trimming that
  again gives it back unchanged, with the drawn budget and with a budget of 1:
  trimming depends on the history and the budget only.

Level: wire (each format's provider answers a broken pair, a history that
starts with orphan results, and a modified opaque value with 400).

Production fingerprint: right after a long conversation overflowed, HTTP 400
"`tool_use` ids were found without `tool_result` blocks immediately after"
or "first message must use the "user" role" (Anthropic), "No tool call found
for function call output with call_id ..." (Responses), "Please ensure that
the number of function response parts is equal to the number of function
call parts of the function call turn" (Gemini); or, once a history was cut a
first time, the next requests outgrow the context window (a cut carried over
from the round before).
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.testing.formats import PINNED, having, wire_format  # noqa: F401 (the fixture)
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats(*having("histories", "trimming"))]

_budgets = st.integers(min_value=1, max_value=8000)
PINNED_BUDGET = 2500  # drops the pinned histories' long first turn, keeps the rest


def _cases(wire_format, data) -> list[tuple[list, int]]:
    """(history, budget): each pinned history at :data:`PINNED_BUDGET`, or one drawn history and budget."""
    return [(history, PINNED_BUDGET if data is PINNED else data.draw(_budgets, label="budget"))
            for history in wire_format.cases(data, "histories")]


def _shape(messages: list) -> str:
    return clip_json(messages, 600)


def _trims(memory, history: list, budget: int) -> list[tuple[int, list]]:
    memory = valid(memory)
    before = copy.deepcopy(history)
    trimmed = [(b, memory.trim_history(history, b)) for b in (budget, 1)]
    assert history == before, f"trim_history changed the history it was given: now {_shape(history)}"
    forced = trimmed[-1][1]
    assert len(forced) < len(history), (
        f"with budget 1 the history of {len(history)} messages came back with {len(forced)}: trimming never ran, "
        f"so this contract did not reach the code it guards\n  input: {_shape(history)}")
    return trimmed


@given(data=st.data())
@example(data=PINNED)
def test_trimming_never_splits_a_pair(memory, wire_format, data):
    for history, budget in _cases(wire_format, data):
        for b, trimmed in _trims(memory, history, budget):
            broken = wire_format.strategies.trimming.broken_pairs(trimmed)
            assert not broken, (f"trimming to budget {b} broke a pair: {broken}\n  trimmed: {_shape(trimmed)}\n"
                                f"  input:   {_shape(history)}")


@given(data=st.data())
@example(data=PINNED)
def test_trimming_starts_with_a_question(memory, wire_format, data):
    for history, budget in _cases(wire_format, data):
        for b, trimmed in _trims(memory, history, budget):
            broken = wire_format.strategies.trimming.bad_opening(trimmed)
            assert not broken, (f"trimming to budget {b}: {broken}\n  trimmed: {_shape(trimmed)}\n"
                                f"  input:   {_shape(history)}")


@given(data=st.data())
@example(data=PINNED)
def test_trimming_keeps_the_newest_exchange_whole(memory, wire_format, data):
    is_question = wire_format.strategies.trimming.is_question
    for history, budget in _cases(wire_format, data):
        latest = history[[k for k, m in enumerate(history) if is_question(m)][-1]:]
        for b, trimmed in _trims(memory, history, budget):
            assert trimmed[-len(latest):] == latest, (
                f"trimming to budget {b} did not keep the newest exchange whole and unchanged ({_shape(latest)})\n"
                f"  trimmed: {_shape(trimmed)}\n  input:   {_shape(history)}")


@given(data=st.data())
@example(data=PINNED)
def test_trimming_keeps_model_turns_unchanged(memory, wire_format, data):
    is_model = wire_format.strategies.trimming.is_model
    for history, budget in _cases(wire_format, data):
        original = [m for m in history if is_model(m)]
        for b, trimmed in _trims(memory, history, budget):
            rest = iter(original)
            changed = [m for m in trimmed if is_model(m) and not any(m == o for o in rest)]  # each after the one before
            assert not changed, (
                f"trimming to budget {b} kept model turns that are not the history's own, unchanged and in order "
                f"(opaque values, order): {clip_json(changed, 1500)}\n  trimmed: {_shape(trimmed)}\n"
                f"  input:   {_shape(history)}")


@given(data=st.data())
@example(data=PINNED)
def test_the_next_rounds_history_trims_the_same_after_the_round_before(memory, wire_format, data):
    memory = valid(memory)
    is_question = wire_format.strategies.trimming.is_question
    for history, budget in _cases(wire_format, data):
        before = history[:[k for k, m in enumerate(history) if is_question(m)][-1]]
        for b in (budget, 1):
            first = memory.trim_history(copy.deepcopy(history), b)
            memory.trim_history(copy.deepcopy(before), b)
            then = memory.trim_history(copy.deepcopy(history), b)
            assert then == first, (
                f"with budget {b}, the history trimmed after the round before it was gives {_shape(then)}, but "
                f"asked first it gave {_shape(first)}; trimming should depend on the history and the budget only\n"
                f"  round before: {_shape(before)}\n  input:        {_shape(history)}")
            again = memory.trim_history(copy.deepcopy(then), b)
            assert again == then, (
                f"on the next round's input, trimming the trimmed history again with budget {b} gave "
                f"{_shape(again)}, but it should come back unchanged: {_shape(then)}\n  input: {_shape(history)}")
