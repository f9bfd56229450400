"""Contract: a Responses kernel sends every round's output items back as received, each call answered, live and resumed.

Incident: `responses-reasoning-without-following-item`,
`responses-call-without-reasoning`, `responses-bare-reasoning-id` and
`responses-encrypted-content-dropped` on the path production runs: the
kernel's own tool loop, and a session resumed from its persisted rounds;
`batch-path-pairing` for the outputs.

Rule: in a turn of one or more tool rounds and an answer, played by
``ScriptedModel(loop, format="openai-responses")`` (reasoning items
encrypted, as under ``store: false``; each tool round ``completed``, with a
usage or none), the kernel runs every round's calls and goes on (a round with
calls is a tool round whatever its status says), and every follow-up request
the kernel sends (read from the model, never from the adapter):

- holds each earlier round's output items exactly as received, in order, in
  one run: reasoning items with their id, summary and ``encrypted_content``
  byte for byte, messages with their texts, function calls with their
  ``call_id``, name and arguments;
- answers each call with one ``function_call_output`` after it and before
  the next round, carrying what the tool returned for that call;
- is refused nothing by the provider (:mod:`harness.rules.responses_history`,
  with the turns it sent);
- and each round is persisted with its blocks exactly as received and one
  result per call, the question on the first round only.

``render_history(events)`` of persisted rounds (several turns, possibly cut
inside the latest turn's tool loop) gives an ``input`` holding each turn's
question in order, each round's items as received in one run, each call
answered before the next question, that the provider refuses nothing.

Robust: a round whose call's arguments were cut off (by the token limit,
or a relay's cut stream; the decoder hands the call over as streamed) is
carried as received: the next request replays the call with its
``call_id``, name and arguments byte for byte and answers it once (what the
tool returned, or an error text: running it is the kernel's decision); the
round is persisted as received, comes back from ``store_blocks`` /
``load_blocks`` unchanged, and ``render_history`` of the loaded rounds
replays the call byte for byte, answered.

Level: wire (the Responses input rules and the errors the provider answers);
robust for the cut call (a provider sends one only when a stream is cut).

Production fingerprint: the request right after a tool round, or the first
request of a resumed session, answers 400 "Item 'rs_...' of type 'reasoning'
was provided without its required following item.", "No tool call found for
function call output with call_id ...", 404 "Item with id 'rs_...' not
found. Items are not persisted when `store` is set to false." or
``invalid_encrypted_content``.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.contracts.responses_checks import assert_items_kept
from harness.testing.responses_incident import TURN
from harness.rules.responses_history import refusals
from harness.testing import ScriptedModel, ScriptedTool, responses_persisted_rounds as persisted_rounds
from harness.testing import responses_tool_loops as tool_loops
from harness.testing.responses_history import calls_of, is_output, is_question, model_runs
from harness.testing.scripted import ended
from harness.under_test.invoke import valid

pytestmark = pytest.mark.formats("openai-responses")

QUESTION = "What is the weather in Paris and Oslo?"
TOOL_NAMES = ("get_weather",)
ANSWER = {"blocks": [{"type": "text", "text": "Paris 18°C, Oslo 4°C.", "item_id": "msg_02"}],
          "stop_reason": "completed", "usage": None}
PINNED = [ended(TURN, "openai-responses", 0), ANSWER]  # the incident's round, as an endpoint that sends no usage


def _run(kernel, loop: list[dict]) -> tuple[ScriptedModel, list[dict]]:
    model = ScriptedModel(loop, format="openai-responses")
    names = sorted({c["name"] for turn in loop for c in calls_of(turn)} | set(TOOL_NAMES))
    events = valid(kernel).run_turn(QUESTION, model, [ScriptedTool(name) for name in names])["events"]
    assert not model.shortfall(), model.shortfall()
    return model, events


def _input(request: dict) -> list:
    items = request.get("input")
    return items if isinstance(items, list) else []


def _outputs(call: dict) -> set[str]:
    # A call with no arguments may reach the tool as "" or as "{}".
    args = {call["arguments"], "{}"} if call["arguments"] == "" else {call["arguments"]}
    return {f"{call['name']} -> {a}" for a in args}


def _answered(items: list, turns: list[dict], results=None) -> list[str]:
    """What is wrong with the outputs: each call answered once, after its round and before the next, with its result."""
    wrong = []
    position = {id(item): n for n, item in enumerate(items)}
    runs = model_runs(items)
    for k, (run, turn) in enumerate(zip(runs, turns)):
        end = position[id(run[-1])]
        nxt = position[id(runs[k + 1][0])] if k + 1 < len(runs) else len(items)
        between = [i for i in items[end + 1:nxt] if is_output(i)]
        ids = sorted(str(o.get("call_id")) for o in between)
        want = sorted(c["id"] for c in calls_of(turn))
        if ids != want:
            wrong.append(f"round {k + 1}: outputs for {shown(ids)} after its items, expected one per call {want}")
            continue
        by_id = {o.get("call_id"): o.get("output") for o in between}
        for c in calls_of(turn):
            expected = {results[k][c["id"]]} if results else _outputs(c)
            if by_id[c["id"]] not in expected:
                wrong.append(f"round {k + 1}, {c['id']}: output {shown(by_id[c['id']])}, expected {shown(sorted(expected))}")
    return wrong


@pytest.mark.wire
@given(loop=tool_loops())
@example(loop=PINNED)
def test_the_next_request_carries_every_round_as_received(kernel, loop):
    model, _ = _run(kernel, loop)
    for n, request in enumerate(model.requests[1:], 2):
        items = _input(request)
        where = f"request #{n}: {clip_json(items, 2000)}"
        runs = model_runs(items)
        assert len(runs) == n - 1, f"the input holds {len(runs)} runs of model items, expected {n - 1} rounds; {where}"
        for k, (run, turn) in enumerate(zip(runs, loop)):
            assert_items_kept(run, turn, f"\n  round {k + 1}; {where}")


@pytest.mark.wire
@given(loop=tool_loops())
@example(loop=PINNED)
def test_every_call_is_answered_before_the_next_round(kernel, loop):
    model, _ = _run(kernel, loop)
    for n, request in enumerate(model.requests[1:], 2):
        items = _input(request)
        wrong = _answered(items, loop[:n - 1])
        assert not wrong, f"request #{n}: {'; '.join(wrong)}; input: {clip_json(items, 2000)}"


@pytest.mark.wire
@given(loop=tool_loops())
@example(loop=PINNED)
def test_the_provider_refuses_no_request_of_the_loop(kernel, loop):
    model, _ = _run(kernel, loop)
    for n, request in enumerate(model.requests, 1):
        refused = refusals(request, sent=loop[:n - 1])
        assert not refused, (f"the provider would refuse request #{n}: {[r.message for r in refused]}\n"
                             f"  input: {clip_json(_input(request), 2000)}")


@pytest.mark.wire
@given(loop=tool_loops())
@example(loop=PINNED)
def test_each_round_is_persisted_as_received(kernel, loop):
    _, events = _run(kernel, loop)
    assert len(events) == len(loop), f"{len(events)} events persisted for {len(loop)} rounds; expected one per round"
    for n, (event, turn) in enumerate(zip(events, loop)):
        assert event.get("blocks") == turn["blocks"], (
            f"round {n + 1} persisted the blocks {clip_json(event.get('blocks'), 1000)}, but the model sent "
            f"{clip_json(turn['blocks'], 1000)} (order and values exactly)")
        ids = sorted(str(r.get("tool_call_id")) for r in event.get("tool_results") or ())
        assert ids == sorted(c["id"] for c in calls_of(turn)), (
            f"round {n + 1} persisted results for {shown(ids)}, expected one per call: "
            f"{[c['id'] for c in calls_of(turn)]}")
        want_input = QUESTION if n == 0 else None
        assert (event.get("input") or None) == want_input, (
            f"round {n + 1} persisted input={shown(event.get('input'))}, expected {shown(want_input)}")


@st.composite
def _resumed(draw) -> list[dict]:
    """Persisted rounds of one to three turns, the latest possibly cut inside its tool loop."""
    events = draw(persisted_rounds(max_turns=3))
    starts = [k for k, e in enumerate(events) if e["input"]]
    return events[:draw(st.integers(starts[-1] + 1, len(events)))]


_PINNED_EVENTS = [
    {"input": QUESTION, "blocks": TURN["blocks"], "timestamp": 1.0,
     "tool_results": [{"tool_call_id": "call_B", "name": "get_weather", "content": "4"},
                      {"tool_call_id": "call_A", "name": "get_weather", "content": ""}]},
    {"input": None, "blocks": ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
    {"input": "And tomorrow?", "blocks": [{**b, "item_id": b["item_id"] + "9"} for b in TURN["blocks"][:1]] + [
        {"type": "tool_call", "id": "call_C", "name": "get_weather", "arguments": "", "item_id": "fc_C"}],
     "tool_results": [{"tool_call_id": "call_C", "name": "get_weather", "content": "rain"}], "timestamp": 2.0},
]


def _said(content: object) -> object:
    """What a user message says: its string, or its text parts joined (``input_text`` parts)."""
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content


def _rendered(kernel, events: list[dict]) -> list:
    items = valid(kernel).render_history(events)
    assert isinstance(items, list), f"render_history should return the input items, got {shown(items)}"
    return items


@pytest.mark.wire
@given(events=_resumed())
@example(events=_PINNED_EVENTS)
def test_persisted_rounds_render_as_received(kernel, events):
    items = _rendered(kernel, events)
    where = f"input: {clip_json(items, 2000)}"
    runs = model_runs(items)
    assert len(runs) == len(events), f"the input holds {len(runs)} runs of model items for {len(events)} rounds; {where}"
    for k, (run, event) in enumerate(zip(runs, events)):
        assert_items_kept(run, event, f"\n  round {k + 1}; {where}")


@pytest.mark.wire
@given(events=_resumed())
@example(events=_PINNED_EVENTS)
def test_rendered_calls_are_answered_and_questions_kept_in_order(kernel, events):
    items = _rendered(kernel, events)
    results = [{r["tool_call_id"]: r["content"] for r in e["tool_results"]} for e in events]
    wrong = _answered(items, events, results)
    assert not wrong, f"{'; '.join(wrong)}; input: {clip_json(items, 2000)}"
    asked = [_said(i.get("content")) for i in items if is_question(i)]
    want = [e["input"] for e in events if e["input"]]
    assert asked == want, (f"the user messages ask {shown(asked)}, expected each turn's question in order "
                           f"{shown(want)}; input: {clip_json(items, 2000)}")


@pytest.mark.wire
@given(events=_resumed())
@example(events=_PINNED_EVENTS)
def test_the_provider_refuses_nothing_in_the_rendered_history(kernel, events):
    items = _rendered(kernel, events)
    body = {"model": "gpt-5", "store": False, "input": items}
    refused = refusals(body, sent=[{"blocks": e["blocks"]} for e in events])
    assert not refused, (f"the provider would refuse the resumed session: {[r.message for r in refused]}\n"
                         f"  input: {clip_json(items, 2000)}")


# The incident's round with its second call's arguments cut off: the decoder hands the call over as streamed.
CUT_LOOP = [{**TURN, "blocks": [*TURN["blocks"][:3], {**TURN["blocks"][3], "arguments": '{"city":"Os'}]}, ANSWER]


def _calls_in(items: list) -> list[tuple]:
    return [(i.get("call_id"), i.get("name"), i.get("arguments")) for i in items
            if isinstance(i, dict) and i.get("type") == "function_call"]


def _cut_call_carried(items: list, where: str) -> None:
    made = [(c["id"], c["name"], c["arguments"]) for c in calls_of(CUT_LOOP[0])]
    assert _calls_in(items) == made, (
        f"{where} replays the calls as {shown(_calls_in(items))}, but the model made them {shown(made)}: each call's "
        f"call_id, name and arguments go back byte for byte, cut ones included; input {clip_json(items, 1500)}")
    cut = calls_of(CUT_LOOP[0])[-1]
    outputs = [i.get("output") for i in items if is_output(i) and i.get("call_id") == cut["id"]]
    assert len(outputs) == 1 and isinstance(outputs[0], str) and outputs[0].strip(), (
        f"{where} answers the cut call {cut['id']} with {shown(outputs)}; it should get one output: what the tool "
        f"returned, {sorted(_outputs(cut))}, or an error text the model can read")


@pytest.mark.robust
def test_a_call_with_cut_arguments_is_carried_as_received(kernel, memory):
    model, events = _run(kernel, CUT_LOOP)
    _cut_call_carried(_input(model.requests[1]), "request #2")
    assert events and events[0].get("blocks") == CUT_LOOP[0]["blocks"], (
        f"the round with the cut call is persisted as {clip_json(events[:1], 1500)}, but the model sent "
        f"{clip_json(CUT_LOOP[0]['blocks'], 1500)}")
    memory = valid(memory)
    loaded = memory.load_blocks(memory.store_blocks(copy.deepcopy(events)))
    assert loaded == events, (
        f"the rounds with the cut call came back from cold storage as {clip_json(loaded, 1500)}, but were stored as "
        f"{clip_json(events, 1500)}")
    _cut_call_carried(_rendered(kernel, copy.deepcopy(loaded)), "render_history of the loaded rounds")
