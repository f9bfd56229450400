"""Contract: a Bedrock kernel sends every model turn back as received, each call answered alone in the next user turn, live and resumed.

Incident: `bedrock-tool-result-pairing` ("Expected toolResult blocks at
messages.2.content for the following Ids: ...", "The number of toolResult
blocks at messages.N.content exceeds the number of toolUse blocks of
previous turn", "Conversation blocks and tool result blocks cannot be
provided in the same turn") and `bedrock-signature-joined` on the path
production runs: the kernel's own tool loop, and a session resumed from its
persisted rounds; `bedrock-tool-config-missing` for a request that carries
tool blocks without ``toolConfig``.

Rule: in a turn of one or more rounds of parallel calls and an answer,
played by ``ScriptedModel(loop, format="bedrock")`` (each round ended with
``tool_use``, with a usage or none), every follow-up request the kernel
sends (read from the model, never from the adapter):

- holds one assistant message per earlier round, in order, its content as
  received (:func:`harness.testing.bedrock_history.assistant_message`: each
  reasoning block with its own signature, redacted bytes as sent, calls with
  their ``toolUseId``, ``name`` and ``input``, no blank text);
- answers each round in the user message right after it, with one
  ``toolResult`` per call, in call order, each naming its call's
  ``toolUseId`` and holding what the tool returned, and nothing else;
- is refused nothing by Bedrock (:mod:`harness.rules.bedrock_history`, with
  the turns it sent);
- and each round is persisted with its blocks exactly as received, the
  question on the first round only.

``render_history(events)`` of persisted rounds (several turns, possibly cut
inside the latest turn's loop) gives messages holding each round's assistant
message as received, each round answered alone in the user message after
it, that Bedrock refuses nothing.

Level: wire (Converse's history rules and the ``ValidationException`` texts it answers).

Production fingerprint: the request after a tool round, or the first of a
resumed session, fails with one of the texts above, and every retry fails the
same way: "the session becomes permanently stuck".
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.rules.bedrock_history import content_of, refusals
from harness.testing import ScriptedModel, ScriptedTool
from harness.testing.bedrock_history import assistant_message, calls_of, persisted_rounds, results_for, tool_loops
from harness.testing.bedrock_incident import ANSWER, TURN
from harness.testing.scripted import ended
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("bedrock")]

QUESTION = "What is the weather in Zürich and Oslo, and the time?"
PINNED = [ended(TURN, "bedrock", 0), ANSWER]


def _run(kernel, loop: list[dict]) -> tuple[ScriptedModel, list[dict]]:
    model = ScriptedModel(loop, format="bedrock")
    names = sorted({c["name"] for turn in loop for c in calls_of(turn)})
    events = valid(kernel).run_turn(QUESTION, model, [ScriptedTool(name) for name in names])["events"]
    assert not model.shortfall(), model.shortfall()
    return model, events


def _messages(body: object) -> list:
    found = body.get("messages") if isinstance(body, dict) else body
    return found if isinstance(found, list) else []


def _assistants(messages: list) -> list[tuple[int, dict]]:
    return [(n, m) for n, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"]


def _tool_outputs(call: dict) -> set[str]:
    # A call with no arguments may reach the tool as "" or as "{}".
    args = {call["arguments"], "{}"} if call["arguments"] == "" else {call["arguments"]}
    return {f"{call['name']} -> {a}" for a in args}


def _answers(messages: list, turns: list, outputs: list) -> list[str]:
    """What is wrong with the results: each round answered alone, in order, in the user message after it."""
    wrong = []
    for k, ((n, _), turn) in enumerate(zip(_assistants(messages), turns)):
        calls = calls_of(turn)
        if not calls:
            continue
        after = messages[n + 1] if n + 1 < len(messages) else {}
        blocks = content_of(after) if isinstance(after, dict) and after.get("role") == "user" else []
        results = [b.get("toolResult") for b in blocks]
        ids = [r.get("toolUseId") if isinstance(r, dict) else r for r in results]
        if ids != [c["id"] for c in calls]:
            wrong.append(f"round {k + 1}: the user message after it holds {shown(blocks)}; expected one toolResult "
                         f"per call in order {[c['id'] for c in calls]} and nothing else")
            continue
        for j, result in enumerate(results):
            said = {b.get("text") for b in result.get("content") or () if isinstance(b, dict)} or {""}
            if not said & outputs[k][j]:
                wrong.append(f"round {k + 1}, call {j}: toolResult content {shown(result.get('content'))} should "
                             f"hold one of {shown(sorted(outputs[k][j]))}")
    return wrong


@given(loop=tool_loops())
@example(loop=PINNED)
def test_the_next_request_carries_every_model_turn_as_received(kernel, loop):
    model, _ = _run(kernel, loop)
    for n, request in enumerate(model.requests[1:], 2):
        messages = _messages(request)
        where = f"request #{n}: {clip_json(messages, 2000)}"
        assistants = _assistants(messages)
        assert len(assistants) == n - 1, (
            f"{len(assistants)} assistant messages, expected one per earlier round ({n - 1}); {where}")
        for k, ((_, message), turn) in enumerate(zip(assistants, loop)):
            want = assistant_message(turn)["content"]
            assert content_of(message) == want, (
                f"round {k + 1} went back as {clip_json(content_of(message), 1200)}, but should be "
                f"{clip_json(want, 1200)} (the blocks as received); {where}")


@given(loop=tool_loops())
@example(loop=PINNED)
def test_every_round_is_answered_alone_in_the_next_user_message(kernel, loop):
    model, _ = _run(kernel, loop)
    outputs = [[_tool_outputs(c) for c in calls_of(turn)] for turn in loop]
    for n, request in enumerate(model.requests[1:], 2):
        messages = _messages(request)
        wrong = _answers(messages, loop[:n - 1], outputs)
        assert not wrong, f"request #{n}: {'; '.join(wrong)}; messages: {clip_json(messages, 2000)}"


@given(loop=tool_loops())
@example(loop=PINNED)
def test_bedrock_refuses_no_request_of_the_loop(kernel, loop):
    model, _ = _run(kernel, loop)
    for n, request in enumerate(model.requests, 1):
        refused = refusals(request, sent=loop[:n - 1])
        assert not refused, (f"Bedrock would answer request #{n} with 400: {[(r.path, r.message) for r in refused]}\n"
                             f"  messages: {clip_json(_messages(request), 2000)}")


@given(loop=tool_loops())
@example(loop=PINNED)
def test_each_round_is_persisted_as_received(kernel, loop):
    _, events = _run(kernel, loop)
    assert len(events) == len(loop), f"{len(events)} events persisted for {len(loop)} rounds; expected one per round"
    for n, (event, turn) in enumerate(zip(events, loop)):
        assert event.get("blocks") == turn["blocks"], (
            f"round {n + 1} persisted the blocks {clip_json(event.get('blocks'), 1000)}, but the model sent "
            f"{clip_json(turn['blocks'], 1000)} (order, values and signatures exactly)")
        want_input = QUESTION if n == 0 else None
        assert (event.get("input") or None) == want_input, (
            f"round {n + 1} persisted input={shown(event.get('input'))}, expected {shown(want_input)}")


@st.composite
def _resumed(draw) -> list[dict]:
    """Persisted rounds of one to three turns, the latest possibly cut inside its loop."""
    events = draw(persisted_rounds(max_turns=3))
    starts = [k for k, e in enumerate(events) if e["input"]]
    return events[:draw(st.integers(starts[-1] + 1, len(events)))]


_PINNED_EVENTS = [
    {"input": QUESTION, "blocks": TURN["blocks"], "timestamp": 1.0, "tool_results": results_for(TURN, ["12", "4", ""])},
    {"input": None, "blocks": ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
    {"input": "And tomorrow?", "blocks": TURN["blocks"][2:5], "timestamp": 2.0,
     "tool_results": results_for({"blocks": TURN["blocks"][2:5]}, ["rain"])},
]


@given(events=_resumed())
@example(events=_PINNED_EVENTS)
def test_persisted_rounds_render_as_received_and_answered(kernel, events):
    messages = valid(kernel).render_history(events)
    assert isinstance(messages, list), f"render_history should return the messages, got {shown(messages)}"
    where = f"messages: {clip_json(messages, 2000)}"
    assistants = _assistants(messages)
    assert len(assistants) == len(events), f"{len(assistants)} assistant messages for {len(events)} rounds; {where}"
    for k, ((_, message), event) in enumerate(zip(assistants, events)):
        want = assistant_message(event)["content"]
        assert content_of(message) == want, (
            f"round {k + 1} rendered as {clip_json(content_of(message), 1200)}, but should be "
            f"{clip_json(want, 1200)}; {where}")
    wrong = _answers(messages, events, [[{r["content"]} for r in e["tool_results"]] for e in events])
    assert not wrong, f"{'; '.join(wrong)}; {where}"
    refused = refusals({"messages": messages, "toolConfig": {"tools": []}}, sent=[{"blocks": e["blocks"]} for e in events])
    assert not refused, (f"Bedrock would answer the resumed session with 400: {[(r.path, r.message) for r in refused]}"
                         f"; {where}")
