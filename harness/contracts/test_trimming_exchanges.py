"""Contract: trimming a history never splits a call from its answer, and keeps what it keeps as is, in every neutral-turn format.

Incident: a history cut back on overflow is the classic way a call loses its
result or a result its call (incident `batch-path-pairing`); a trimmer that
rewrites what it keeps also loses the opaque values of a kept tool turn:
thinking on Anthropic (incident `anthropic-thinking-dropped`), a reasoning
item's ``encrypted_content`` or the reasoning item itself on OpenAI Responses
(`responses-call-without-reasoning`), a ``thoughtSignature`` on Gemini
(`gemini-signature-aggregation`); one that starts the history at the model's
turn or at orphan results is refused outright.

Rule: stated once for the three formats that persist neutral rounds, each
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
- leaves the caller's history as it was.

Level: wire (each format's provider answers a broken pair, a history that
starts with orphan results, and a modified opaque value with 400).

Production fingerprint: right after a long conversation overflowed, HTTP 400
"`tool_use` ids were found without `tool_result` blocks immediately after"
or "first message must use the "user" role" (Anthropic), "No tool call found
for function call output with call_id ..." (Responses), "Please ensure that
the number of function response parts is equal to the number of function
call parts of the function call turn" (Gemini).
"""

import copy
from dataclasses import dataclass
from typing import Callable

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.contracts.gemini_incident import PARALLEL, SIGNED_ANSWER, WITH_IDS
from harness.contracts.test_responses_stream_items import TURN as RESPONSES_TURN
from harness.rules import anthropic_history, gemini_history as gemini_rules, responses_history as responses_rules
from harness.testing import (
    anthropic_persisted_rounds, anthropic_wire_history, gemini_persisted_rounds, gemini_wire_history,
    responses_persisted_rounds, responses_wire_input)
from harness.testing import gemini_history, responses_history
from harness.testing.anthropic_history import INTERLEAVED_ANSWER, INTERLEAVED_TURN
from harness.under_test.invoke import valid

pytestmark = pytest.mark.wire


@dataclass(frozen=True)
class _Format:
    """What trimming is judged by in one format: its broken pairs, its opening, its questions and model turns."""

    broken_pairs: Callable[[list], list[str]]
    bad_opening: Callable[[list], list[str]]
    is_question: Callable[[object], bool]
    is_model: Callable[[object], bool]


def _refused(judge, body_key: str, rules: tuple, **body) -> Callable[[list], list[str]]:
    return lambda messages: [r.message for r in judge({body_key: messages, **body}) if r.rule in rules]


def _opens_with(is_question: Callable[[object], bool]) -> Callable[[list], list[str]]:
    return lambda messages: [] if messages and is_question(messages[0]) else [
        f"the history should open with a user's question, not {clip_json(messages[:1], 300)}"]


def _anthropic_question(m: object) -> bool:
    return isinstance(m, dict) and m.get("role") == "user" and any(
        isinstance(b, dict) and b.get("type") == "text" for b in m.get("content") or ())


def _gemini_question(c: object) -> bool:
    return isinstance(c, dict) and c.get("role") == "user" and any(
        isinstance(p, dict) and "text" in p for p in gemini_rules.parts_of(c))


def _role(role: str) -> Callable[[object], bool]:
    return lambda m: isinstance(m, dict) and m.get("role") == role


_FORMATS = {
    "anthropic": _Format(
        _refused(anthropic_history.refusals, "messages",
                 (anthropic_history.TOOL_USE_ANSWERED, anthropic_history.TOOL_RESULT_PAIRED)),
        _refused(anthropic_history.refusals, "messages", (anthropic_history.FIRST_USER,
                                                          anthropic_history.ROLES_ALTERNATE,
                                                          anthropic_history.CONTENT_NON_EMPTY)),
        _anthropic_question, _role("assistant")),
    "openai-responses": _Format(
        _refused(responses_rules.refusals, "input",
                 (responses_rules.OUTPUT_ANSWERS_CALL, responses_rules.REASONING_FOLLOWED), store=False),
        _opens_with(responses_history.is_question), responses_history.is_question,
        lambda i: not (responses_history.is_question(i) or responses_history.is_output(i))),
    "gemini": _Format(
        _refused(gemini_rules.refusals, "contents", (gemini_rules.RESPONSES_COUNTED, gemini_rules.CALL_TURN_PLACED),
                 ),
        _opens_with(_gemini_question), _gemini_question, _role("model")),
}


def _histories(persisted_rounds, wire_history) -> st.SearchStrategy[list]:
    """Two or three turns as the format's wire history, the latest possibly cut inside its tool loop."""

    @st.composite
    def histories(draw) -> list:
        events = draw(persisted_rounds(min_turns=2, max_turns=3))
        starts = [k for k, e in enumerate(events) if e["input"]]
        return wire_history(events[:draw(st.integers(starts[-1] + 1, len(events)))])

    return histories()


_budgets = st.integers(min_value=1, max_value=8000)
_OLD = {"input": "question 0: " + "word " * 1500, "blocks": INTERLEAVED_TURN["blocks"], "timestamp": 1.0,
        "tool_results": [{"tool_call_id": f"toolu_0{k}", "content": "line " * 200} for k in (3, 1, 2)]}
ANTHROPIC = anthropic_wire_history([
    _OLD, {"input": None, "blocks": INTERLEAVED_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
    {"input": "question 1", "blocks": [INTERLEAVED_TURN["blocks"][0], {"type": "tool_call", "id": "toolu_11",
                                                                        "name": "list_dir", "arguments": ""}],
     "tool_results": [{"tool_call_id": "toolu_11", "content": "b " * 300}], "timestamp": 2.0},
])
RESPONSES = responses_wire_input([
    {"input": "question 0: " + "word " * 1500, "blocks": RESPONSES_TURN["blocks"], "timestamp": 1.0,
     "tool_results": [{"tool_call_id": f"call_{k}", "name": "get_weather", "content": "line " * 200} for k in "BA"]},
    {"input": None, "blocks": [{"type": "text", "text": "Paris 18, Oslo 4.", "item_id": "msg_02"}],
     "tool_results": [], "timestamp": 1.0},
    {"input": "question 1", "blocks": [{**RESPONSES_TURN["blocks"][0], "item_id": "rs_11"},
                                       {"type": "tool_call", "id": "call_C", "name": "list_dir", "arguments": "",
                                        "item_id": "fc_C"}],
     "tool_results": [{"tool_call_id": "call_C", "name": "list_dir", "content": "b " * 300}], "timestamp": 2.0},
])
GEMINI = gemini_wire_history([
    {"input": "question 0: " + "word " * 1500, "blocks": PARALLEL["blocks"], "timestamp": 1.0,
     "tool_results": gemini_history.results_for(PARALLEL, ["line " * 200] * 3)},
    {"input": None, "blocks": SIGNED_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
    {"input": "question 1", "blocks": WITH_IDS["blocks"], "timestamp": 2.0,
     "tool_results": gemini_history.results_for(WITH_IDS, ["b " * 300] * 3)},
])
PINNED_BUDGET = 2500


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


def _never_splits_a_pair(memory, fmt: _Format, history: list, budget: int) -> None:
    for b, trimmed in _trims(memory, history, budget):
        broken = fmt.broken_pairs(trimmed)
        assert not broken, (f"trimming to budget {b} broke a pair: {broken}\n  trimmed: {_shape(trimmed)}\n"
                            f"  input:   {_shape(history)}")


def _opens_with_the_user(memory, fmt: _Format, history: list, budget: int) -> None:
    for b, trimmed in _trims(memory, history, budget):
        broken = fmt.bad_opening(trimmed)
        assert not broken, f"trimming to budget {b}: {broken}\n  trimmed: {_shape(trimmed)}\n  input:   {_shape(history)}"


def _keeps_the_newest_exchange(memory, fmt: _Format, history: list, budget: int) -> None:
    latest = history[[k for k, m in enumerate(history) if fmt.is_question(m)][-1]:]
    for b, trimmed in _trims(memory, history, budget):
        assert trimmed[-len(latest):] == latest, (
            f"trimming to budget {b} did not keep the newest exchange whole and unchanged ({_shape(latest)})\n"
            f"  trimmed: {_shape(trimmed)}\n  input:   {_shape(history)}")


def _keeps_model_turns_unchanged(memory, fmt: _Format, history: list, budget: int) -> None:
    original = [m for m in history if fmt.is_model(m)]
    for b, trimmed in _trims(memory, history, budget):
        rest = iter(original)
        changed = [m for m in trimmed if fmt.is_model(m) and not any(m == o for o in rest)]  # each after the one before
        assert not changed, (
            f"trimming to budget {b} kept model turns that are not the history's own, unchanged and in order "
            f"(opaque values, order): {clip_json(changed, 1500)}\n  trimmed: {_shape(trimmed)}\n"
            f"  input:   {_shape(history)}")


_ANTHROPIC_HISTORIES = _histories(anthropic_persisted_rounds, anthropic_wire_history)
_RESPONSES_HISTORIES = _histories(responses_persisted_rounds, responses_wire_input)
_GEMINI_HISTORIES = _histories(gemini_persisted_rounds, gemini_wire_history)


@pytest.mark.formats("anthropic")
@given(history=_ANTHROPIC_HISTORIES, budget=_budgets)
@example(history=ANTHROPIC, budget=PINNED_BUDGET)
def test_trimming_never_splits_a_pair(memory, history, budget):
    _never_splits_a_pair(memory, _FORMATS["anthropic"], history, budget)


@pytest.mark.formats("anthropic")
@given(history=_ANTHROPIC_HISTORIES, budget=_budgets)
@example(history=ANTHROPIC, budget=PINNED_BUDGET)
def test_trimming_starts_with_the_user_and_alternates(memory, history, budget):
    _opens_with_the_user(memory, _FORMATS["anthropic"], history, budget)


@pytest.mark.formats("anthropic")
@given(history=_ANTHROPIC_HISTORIES, budget=_budgets)
@example(history=ANTHROPIC, budget=PINNED_BUDGET)
def test_trimming_keeps_the_newest_exchange_whole(memory, history, budget):
    _keeps_the_newest_exchange(memory, _FORMATS["anthropic"], history, budget)


@pytest.mark.formats("anthropic")
@given(history=_ANTHROPIC_HISTORIES, budget=_budgets)
@example(history=ANTHROPIC, budget=PINNED_BUDGET)
def test_trimming_keeps_assistant_messages_unchanged(memory, history, budget):
    _keeps_model_turns_unchanged(memory, _FORMATS["anthropic"], history, budget)


@pytest.mark.formats("openai-responses")
@given(history=_RESPONSES_HISTORIES, budget=_budgets)
@example(history=RESPONSES, budget=PINNED_BUDGET)
def test_responses_trimming_never_splits_a_call_from_its_output(memory, history, budget):
    _never_splits_a_pair(memory, _FORMATS["openai-responses"], history, budget)


@pytest.mark.formats("openai-responses")
@given(history=_RESPONSES_HISTORIES, budget=_budgets)
@example(history=RESPONSES, budget=PINNED_BUDGET)
def test_responses_trimming_starts_with_a_question(memory, history, budget):
    _opens_with_the_user(memory, _FORMATS["openai-responses"], history, budget)


@pytest.mark.formats("openai-responses")
@given(history=_RESPONSES_HISTORIES, budget=_budgets)
@example(history=RESPONSES, budget=PINNED_BUDGET)
def test_responses_trimming_keeps_the_newest_exchange_whole(memory, history, budget):
    _keeps_the_newest_exchange(memory, _FORMATS["openai-responses"], history, budget)


@pytest.mark.formats("openai-responses")
@given(history=_RESPONSES_HISTORIES, budget=_budgets)
@example(history=RESPONSES, budget=PINNED_BUDGET)
def test_responses_trimming_keeps_model_items_unchanged(memory, history, budget):
    _keeps_model_turns_unchanged(memory, _FORMATS["openai-responses"], history, budget)


@pytest.mark.formats("gemini")
@given(history=_GEMINI_HISTORIES, budget=_budgets)
@example(history=GEMINI, budget=PINNED_BUDGET)
def test_gemini_trimming_never_splits_a_call_turn_from_its_responses(memory, history, budget):
    _never_splits_a_pair(memory, _FORMATS["gemini"], history, budget)


@pytest.mark.formats("gemini")
@given(history=_GEMINI_HISTORIES, budget=_budgets)
@example(history=GEMINI, budget=PINNED_BUDGET)
def test_gemini_trimming_starts_with_a_question(memory, history, budget):
    _opens_with_the_user(memory, _FORMATS["gemini"], history, budget)


@pytest.mark.formats("gemini")
@given(history=_GEMINI_HISTORIES, budget=_budgets)
@example(history=GEMINI, budget=PINNED_BUDGET)
def test_gemini_trimming_keeps_the_newest_exchange_whole(memory, history, budget):
    _keeps_the_newest_exchange(memory, _FORMATS["gemini"], history, budget)


@pytest.mark.formats("gemini")
@given(history=_GEMINI_HISTORIES, budget=_budgets)
@example(history=GEMINI, budget=PINNED_BUDGET)
def test_gemini_trimming_keeps_model_contents_unchanged(memory, history, budget):
    _keeps_model_turns_unchanged(memory, _FORMATS["gemini"], history, budget)
