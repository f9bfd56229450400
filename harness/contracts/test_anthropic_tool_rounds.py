"""Contract: after a tool round the kernel sends the blocks back exactly as received, each call answered first.

Incident: replay rebuilt the content as all thinking, then text, then tools
(incident `anthropic-replay-regrouped`); history conversion dropped the thinking from the
tool turn (incident `anthropic-thinking-dropped`); a frame that records results but not
their calls (incident `batch-path-pairing`) leaves tool results nobody asked for;
a kernel that reads a round by its stop reason (incident `anthropic-stop-reason`:
a pending tool call discarded) runs nothing when a relay ends it ``end_turn``.

Rule: in a turn of one or more tool rounds and an answer, played by
``ScriptedModel(rounds, format="anthropic")`` (each tool round ending as
endpoints and relays end one: ``tool_use``, ``end_turn`` or no stop reason,
with a usage or none), the kernel runs every round's calls and goes on (a
round with calls is a tool round whatever its stop reason says), and every
follow-up request the kernel sends (read from the model, never from the
adapter) ends with the round's assistant message and a user message
answering it:

- the assistant message holds the turn's blocks exactly as received: the
  same types in the same order, each thinking block's text and signature and
  each redacted block's data byte for byte, each tool_use's id and name and
  its arguments as ``input`` (``{}`` for ``""``), the texts; no empty text
  block;
- the user message opens with one ``tool_result`` per ``tool_use`` (paired
  by id), results before anything else, each carrying what the tool returned
  for that call;
- judged as Anthropic would judge it (thinking enabled when the turn thought,
  none when it did not; the latest turn as sent), nothing is refused;
- each round is persisted with its blocks exactly as received and one result
  per call, the question on the first round only.

Robust: a round whose call's streamed ``partial_json`` was cut off
(incident `anthropic-partial-json-dropped`: fine-grained tool streaming cut
by ``max_tokens``; the decoder hands the call over with its raw text) is
carried as received: the next request sends the call back with its id and
name, its ``input`` an object that holds the raw text (the arguments parsed
when they parse to an object), answers it with one ``tool_result`` (what the
tool returned, or an error text: running it is the kernel's decision), and
Anthropic refuses nothing in it; the round is persisted with its blocks as
received, comes back from ``store_blocks`` / ``load_blocks`` unchanged, and
``render_history`` of the loaded rounds sends the call back the same way.

Level: wire (Anthropic's history rules; a correct client library keeps them);
robust for the cut call (Anthropic sends one only under fine-grained tool
streaming).

Production fingerprint: behind a relay that ends tool rounds with
``end_turn``, the turn ends on the model's "Let me check." and no tool runs;
the request right after a tool round answers HTTP
400 "`thinking` or `redacted_thinking` blocks in the latest assistant message
cannot be modified", "Expected `thinking` or `redacted_thinking`, but found
`tool_use`", or "`tool_use` ids were found without `tool_result` blocks
immediately after"; every later turn of the session fails the same way.
"""

import copy
import json

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.contracts.anthropic_blocks_kept import assert_blocks_kept
from harness.contracts.anthropic_rounds import PINNED, PINNED_UNSAID, QUESTION, as_sent, run
from harness.rules.anthropic_history import refusals, tool_result_text
from harness.testing import anthropic_tool_loops, anthropic_wire_message
from harness.testing.anthropic_history import calls_of, content_blocks
from harness.under_test.invoke import valid

pytestmark = pytest.mark.formats("anthropic")

_loops = st.booleans().flatmap(lambda thinking: anthropic_tool_loops(thinking))


def _outputs(call: dict) -> set[str]:
    # A call with no arguments may reach the tool as "" or as "{}".
    args = {call["arguments"], "{}"} if call["arguments"] == "" else {call["arguments"]}
    return {f"{call['name']} -> {a}" for a in args}


@pytest.mark.wire
@given(loop=_loops)
@example(loop=PINNED)
@example(loop=PINNED_UNSAID)
def test_the_next_request_carries_the_blocks_as_received(kernel, loop):
    model, _ = run(kernel, loop)
    for n, (request, turn) in enumerate(zip(model.requests[1:], loop), 2):
        messages = request.get("messages") or []
        where = f"request #{n} after round {n - 1}: {clip_json(messages[-2:], 1500)}"
        assistant = messages[-2] if len(messages) >= 2 else {}
        assert assistant.get("role") == "assistant", (
            f"the message before the results should be the assistant's; {where}")
        assert_blocks_kept(content_blocks(assistant), anthropic_wire_message(turn)["content"], where)


@pytest.mark.wire
@given(loop=_loops)
@example(loop=PINNED)
@example(loop=PINNED_UNSAID)
def test_every_call_is_answered_first_in_the_next_user_message(kernel, loop):
    model, _ = run(kernel, loop)
    for n, (request, turn) in enumerate(zip(model.requests[1:], loop), 2):
        messages = request.get("messages") or []
        where = f"request #{n} after round {n - 1}: {clip_json(messages[-2:], 1500)}"
        last = messages[-1] if messages else {}
        blocks = content_blocks(last) if last.get("role") == "user" else []
        calls = calls_of(turn)
        opening = blocks[:len(calls)]
        ids = sorted(str(b.get("tool_use_id")) if b.get("type") == "tool_result" else f"<{b.get('type')}>"
                     for b in opening if isinstance(b, dict))
        assert ids == sorted(c["id"] for c in calls), (
            f"the last message opens with {shown(ids)}, but should be a user message opening with one tool_result "
            f"per tool_use: {[c['id'] for c in calls]} (any order); {where}")
        by_id = {b.get("tool_use_id"): b for b in opening if isinstance(b, dict)}
        carried = {i: tool_result_text(b) for i, b in by_id.items()}
        wrong = [f"{c['id']}: {shown(carried[c['id']])}, the tool returned one of {shown(sorted(_outputs(c)))}"
                 for c in calls if c["id"] in carried and carried[c["id"]] not in _outputs(c)]
        assert not wrong, f"tool results carry the wrong output: {'; '.join(wrong)}; {where}"


@pytest.mark.wire
@given(loop=_loops)
@example(loop=PINNED)
@example(loop=PINNED_UNSAID)
def test_anthropic_refuses_no_request_of_the_loop(kernel, loop):
    model, _ = run(kernel, loop)
    for n, request in enumerate(model.requests, 1):
        refused = refusals(as_sent(request, loop), sent=loop[:n - 1] or None)
        assert not refused, (
            f"Anthropic would answer request #{n} with 400: {[r.message for r in refused]}\n"
            f"  messages: {clip_json(request.get('messages'), 2000)}")


@pytest.mark.wire
@given(loop=_loops)
@example(loop=PINNED)
@example(loop=PINNED_UNSAID)
def test_each_round_is_persisted_as_received(kernel, loop):
    _, events = run(kernel, loop)
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
            f"round {n + 1} persisted input={shown(event.get('input'))}, expected {shown(want_input)} (the question "
            "on the first round only)")


# The incident's loop with its first call's partial_json cut off: the decoder hands the call over with its raw text.
CUT_LOOP = [{**PINNED[0], "blocks": [{**b, "arguments": '{"city":"Pa'} if b.get("id") == "toolu_01" else b
                                     for b in PINNED[0]["blocks"]]}, PINNED[1]]


def _holds(wire_input: object, arguments: str) -> bool:
    """Whether a tool_use's ``input`` carries the call's raw arguments: parsed, or the raw text as a value."""
    if not isinstance(wire_input, dict):
        return False
    try:
        parsed = json.loads(arguments or "{}")
    except ValueError:
        parsed = None
    return wire_input == parsed if isinstance(parsed, dict) else arguments in wire_input.values()


def _cut_call_carried(messages: list, where: str) -> None:
    calls = calls_of(CUT_LOOP[0])
    at = next((k for k, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"), None)
    uses = [b for b in content_blocks(messages[at]) if isinstance(b, dict) and b.get("type") == "tool_use"] if (
        at is not None) else []
    sent = [(b.get("id"), b.get("name")) for b in uses]
    assert sent == [(c["id"], c["name"]) for c in calls], (
        f"{where} sends the round's calls back as {shown(sent)}, but the model made {[(c['id'], c['name']) for c in calls]}"
        f" (a call whose arguments were cut off included); messages {clip_json(messages, 1500)}")
    lost = [f"{c['id']}: input {shown(b.get('input'))}, the model streamed {c['arguments']!r}"
            for c, b in zip(calls, uses) if not _holds(b.get("input"), c["arguments"])]
    assert not lost, (f"{where}: a tool_use's input should be an object holding the arguments as streamed (parsed "
                      f"when they parse to an object, else the raw text): {'; '.join(lost)}")
    cut = calls[0]
    answers = [b for b in content_blocks(messages[at + 1]) if isinstance(b, dict) and b.get("type") == "tool_result"
               and b.get("tool_use_id") == cut["id"]] if at + 1 < len(messages) else []
    text = tool_result_text(answers[0]) if answers else None
    assert len(answers) == 1 and isinstance(text, str) and text.strip(), (
        f"{where} answers the cut call {cut['id']} with {shown([tool_result_text(b) for b in answers])}; it should get one "
        f"tool_result: what the tool returned, {sorted(_outputs(cut))}, or an error text the model can read")


@pytest.mark.robust
def test_a_call_with_cut_arguments_is_carried_as_received(kernel, memory):
    model, events = run(kernel, CUT_LOOP)
    _cut_call_carried(model.requests[1].get("messages") or [], "request #2")
    refused = refusals(as_sent(model.requests[1], CUT_LOOP), sent=CUT_LOOP[:1])
    assert not refused, f"Anthropic would answer request #2 with 400: {[r.message for r in refused]}"
    assert events and events[0].get("blocks") == CUT_LOOP[0]["blocks"], (
        f"the round with the cut call is persisted with the blocks {clip_json(events[0].get('blocks') if events else None, 1000)}, "
        f"but the model sent {clip_json(CUT_LOOP[0]['blocks'], 1000)}")
    memory = valid(memory)
    loaded = memory.load_blocks(memory.store_blocks(copy.deepcopy(events)))
    assert loaded == events, (
        f"the rounds with the cut call came back from cold storage as {clip_json(loaded, 1500)}, but were stored as "
        f"{clip_json(events, 1500)}")
    _cut_call_carried(valid(kernel).render_history(copy.deepcopy(loaded)), "render_history of the loaded rounds")
