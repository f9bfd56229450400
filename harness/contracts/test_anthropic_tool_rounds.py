"""Contract: after a tool round the kernel sends the blocks back exactly as received, each call answered first.

Incident: replay rebuilt the content as all thinking, then text, then tools
(incident `anthropic-replay-regrouped`); history conversion dropped the thinking from the
tool turn (incident `anthropic-thinking-dropped`); a frame that records results but not
their calls (incident `batch-path-pairing`) leaves tool results nobody asked for.

Rule: in a turn of one or more tool rounds and an answer, played by
``ScriptedModel(rounds, format="anthropic")``, every follow-up request the
kernel sends (read from the model, never from the adapter) ends with the
round's assistant message and a user message answering it:

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

Level: wire (Anthropic's history rules; a correct client library keeps them).

Production fingerprint: the request right after a tool round answers HTTP
400 "`thinking` or `redacted_thinking` blocks in the latest assistant message
cannot be modified", "Expected `thinking` or `redacted_thinking`, but found
`tool_use`", or "`tool_use` ids were found without `tool_result` blocks
immediately after"; every later turn of the session fails the same way.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.contracts.anthropic_blocks_kept import assert_blocks_kept
from harness.contracts.anthropic_rounds import PINNED, QUESTION, as_sent, run
from harness.rules.anthropic_history import refusals, tool_result_text
from harness.testing import anthropic_tool_loops, anthropic_wire_message
from harness.testing.anthropic_history import calls_of, content_blocks

pytestmark = [pytest.mark.wire, pytest.mark.formats("anthropic")]

_loops = st.booleans().flatmap(lambda thinking: anthropic_tool_loops(thinking))


def _outputs(call: dict) -> set[str]:
    # A call with no arguments may reach the tool as "" or as "{}".
    args = {call["arguments"], "{}"} if call["arguments"] == "" else {call["arguments"]}
    return {f"{call['name']} -> {a}" for a in args}


@given(loop=_loops)
@example(loop=PINNED)
def test_the_next_request_carries_the_blocks_as_received(kernel, loop):
    model, _ = run(kernel, loop)
    for n, (request, turn) in enumerate(zip(model.requests[1:], loop), 2):
        messages = request.get("messages") or []
        where = f"request #{n} after round {n - 1}: {clip_json(messages[-2:], 1500)}"
        assistant = messages[-2] if len(messages) >= 2 else {}
        assert assistant.get("role") == "assistant", (
            f"the message before the results should be the assistant's; {where}")
        assert_blocks_kept(content_blocks(assistant), anthropic_wire_message(turn)["content"], where)


@given(loop=_loops)
@example(loop=PINNED)
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


@given(loop=_loops)
@example(loop=PINNED)
def test_anthropic_refuses_no_request_of_the_loop(kernel, loop):
    model, _ = run(kernel, loop)
    for n, request in enumerate(model.requests, 1):
        refused = refusals(as_sent(request, loop), sent=loop[:n - 1] or None)
        assert not refused, (
            f"Anthropic would answer request #{n} with 400: {[r.message for r in refused]}\n"
            f"  messages: {clip_json(request.get('messages'), 2000)}")


@given(loop=_loops)
@example(loop=PINNED)
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
