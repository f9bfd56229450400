"""Contract: a kernel sends every round of its tool loop back as received, each call answered, live and resumed, in every neutral-turn format.

Incident: the path production runs, the kernel's own tool loop and a session
resumed from its persisted rounds, broke each format's history rules:
Anthropic's replay rebuilt the content as all thinking, then text, then tools
(incident `anthropic-replay-regrouped`) or dropped the thinking from the tool
turn (`anthropic-thinking-dropped`); Responses sent a reasoning item without
its following item or a call without its reasoning
(`responses-reasoning-without-following-item`, `responses-call-without-reasoning`),
a bare reasoning id or no ``encrypted_content`` under ``store: false``
(`responses-bare-reasoning-id`, `responses-encrypted-content-dropped`);
Gemini lost or moved a ``thoughtSignature`` or split parallel calls
(`gemini-signature-aggregation`, `gemini-parallel-split`); Bedrock paired
results wrongly or joined signatures (`bedrock-tool-result-pairing`,
`bedrock-signature-joined`) or sent tool blocks without ``toolConfig``
(`bedrock-tool-config-missing`); a frame that records results but not their
calls leaves results nobody asked for (`batch-path-pairing`); a kernel that
ends a request with the assistant's words (a prefilled answer) is refused by
every Claude model from 4.6 on (`anthropic-prefill-refused`); and a kernel
that reads a round by its stop reason (`anthropic-stop-reason`) runs nothing
when a relay ends a tool round ``end_turn``, ``completed``, ``STOP`` or with
no reason at all.

Rule: stated once for every format whose strategies row
(``harness.testing.formats``) has ``tool_rounds``, each judged by its own
wire. In a turn of one or more rounds of parallel calls and an answer,
played by ``ScriptedModel(loop, format=F)`` (each tool round ended every way
the format's endpoints and relays end one, with a usage or none), the kernel
runs every round's calls and goes on (a round with calls is a tool round
whatever its stop reason says), and every follow-up request it sends (read
from the model, never from the adapter):

- holds one model turn per earlier round, in order, each as received (the
  row's ``changes``: Anthropic's blocks with thinking text, signatures and
  redacted data byte for byte; Responses' items with their ids, summaries and
  ``encrypted_content``; Gemini's parts with each ``thoughtSignature`` on the
  part it came on; Bedrock's content blocks exactly; calls with their ids,
  names and arguments; no blank text);
- answers each round's calls after it and before the next round, each with
  what the tool returned for that call (the row's ``unanswered``: Anthropic's
  ``tool_result`` blocks opening the next user message, Responses'
  ``function_call_output`` items, Gemini's ``functionResponse`` parts and
  Bedrock's lone ``toolResult`` blocks in call order);
- is refused nothing by the provider, nor is the turn's opening request
  (the row's ``refusals``: its history rules given the turns it sent, and
  where its provider's rules differ by model, those of the row's model:
  Anthropic's requests as sent to a model that takes no assistant prefill,
  so none may end with the assistant's message);
- and each round is persisted with its blocks exactly as received and one
  result per call (in call order where the format pairs answers by their
  place), the question on the first round only.

``render_history(events)`` of persisted rounds (one to three turns, the
latest possibly cut inside its loop) gives a history holding each round's
model turn as received, each call answered after its round with its
persisted result, each turn's question in order; the request resuming the
session (the rendered history as is where the latest turn stopped inside its
loop, else followed by the kernel's opening request of the next turn) the
provider refuses nothing.

Robust, where the format's streams can cut a call's arguments (Anthropic's
fine-grained ``partial_json``, incident `anthropic-partial-json-dropped`;
Responses' arguments cut by the token limit or a relay): a round holding such
a call is carried as received: the next request sends the call back (the
row's ``cut``: Anthropic's ``input`` an object holding the raw text;
Responses' arguments byte for byte), answers it once (what the tool returned,
or an error text: running it is the kernel's decision) and is refused
nothing; the round is persisted as received, comes back from
``store_blocks`` / ``load_blocks`` unchanged, and ``render_history`` of the
loaded rounds sends the call back the same way.

Level: wire (each provider's history rules and the 400s it answers); robust
for the cut call (a provider sends one only under fine-grained tool streaming
or when a stream is cut).

Production fingerprint: behind a relay that ends tool rounds with its own
reason, the turn ends on the model's "Let me check." and no tool runs; the
request right after a tool round, or the first of a resumed session, answers
400 "`thinking` or `redacted_thinking` blocks in the latest assistant message
cannot be modified", "`tool_use` ids were found without `tool_result` blocks
immediately after" (Anthropic), "Item 'rs_...' of type 'reasoning' was
provided without its required following item.", "No tool call found for
function call output with call_id ...", ``invalid_encrypted_content``
(Responses), "Function call is missing a thought_signature in functionCall
parts", "Please ensure that the number of function response parts is equal
to the number of function call parts of the function call turn" (Gemini),
"Expected toolResult blocks at messages.2.content for the following Ids:
..." (Bedrock); after an upgrade to Claude 4.6 or later, every turn's first
request answers 400 "This model does not support assistant message prefill.
The conversation must end with a user message."; every later turn of the
session fails the same way.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.testing import ScriptedModel, ScriptedTool
from harness.testing.formats import PINNED, having, wire_format  # noqa: F401 (the fixture)
from harness.testing.scripted import tool_outputs
from harness.under_test.invoke import valid

pytestmark = pytest.mark.formats(*having("tool_rounds"))


def _calls(turn: dict) -> list[dict]:
    return [b for b in turn["blocks"] if b["type"] == "tool_call"]


def _run(kernel, wire_format, loop: list[dict]) -> tuple[ScriptedModel, list[dict]]:
    rounds = wire_format.strategies.tool_rounds
    model = ScriptedModel(loop, format=wire_format.name)
    names = sorted({c["name"] for turn in loop for c in _calls(turn)} | set(rounds.tools))
    events = valid(kernel).run_turn(rounds.question, model, [ScriptedTool(name) for name in names])["events"]
    assert not model.shortfall(), model.shortfall()
    return model, events


def _kept(wire_format, history: list, turns: list[dict], where: str) -> None:
    """The history holds one model turn per round of ``turns``, in order, each as received."""
    rounds = wire_format.strategies.tool_rounds
    sent = rounds.model_turns(history)
    assert len(sent) == len(turns), (
        f"{wire_format.spec.label}: {len(sent)} model turns, expected one per round ({len(turns)}); {where}")
    for k, (got, turn) in enumerate(zip(sent, turns)):
        changes = rounds.changes(got, turn)
        assert not changes, (f"{wire_format.spec.label}, round {k + 1} went back changed: "
                             + "; ".join(f"{rule}: {change}" for rule, change in changes.items()) + f"; {where}")


def _refused(wire_format, body: object, sent: list[dict]) -> list[tuple]:
    return [(r.path, r.message) for r in wire_format.strategies.tool_rounds.refusals(body, sent)]


@pytest.mark.wire
@given(data=st.data())
@example(data=PINNED)
def test_the_next_request_carries_every_model_turn_as_received(kernel, wire_format, data):
    history = wire_format.strategies.tool_rounds.history
    for loop in wire_format.cases(data, "tool_rounds.loops"):
        model, _ = _run(kernel, wire_format, loop)
        for n, request in enumerate(model.requests[1:], 2):
            _kept(wire_format, history(request), loop[:n - 1], f"request #{n}: {clip_json(history(request), 2000)}")


@pytest.mark.wire
@given(data=st.data())
@example(data=PINNED)
def test_every_call_is_answered_after_its_round(kernel, wire_format, data):
    rounds = wire_format.strategies.tool_rounds
    for loop in wire_format.cases(data, "tool_rounds.loops"):
        model, _ = _run(kernel, wire_format, loop)
        outputs = [[tool_outputs(c) for c in _calls(turn)] for turn in loop]
        for n, request in enumerate(model.requests[1:], 2):
            history = rounds.history(request)
            wrong = rounds.unanswered(history, loop[:n - 1], outputs)
            assert not wrong, (f"{wire_format.spec.label}, request #{n}: {'; '.join(wrong)}; "
                               f"history: {clip_json(history, 2000)}")


@pytest.mark.wire
@given(data=st.data())
@example(data=PINNED)
def test_the_provider_refuses_no_request_of_the_loop(kernel, wire_format, data):
    rounds = wire_format.strategies.tool_rounds
    for loop in wire_format.cases(data, "tool_rounds.loops"):
        model, _ = _run(kernel, wire_format, loop)
        for n, request in enumerate(model.requests, 1):
            refused = _refused(wire_format, request, loop[:n - 1])
            assert not refused, (f"{wire_format.spec.label} would refuse request #{n}: {refused}\n"
                                 f"  history: {clip_json(rounds.history(request), 2000)}")


@pytest.mark.wire
@given(data=st.data())
@example(data=PINNED)
def test_each_round_is_persisted_as_received(kernel, wire_format, data):
    rounds = wire_format.strategies.tool_rounds
    for loop in wire_format.cases(data, "tool_rounds.loops"):
        _, events = _run(kernel, wire_format, loop)
        assert len(events) == len(loop), (
            f"{len(events)} events persisted for {len(loop)} rounds; expected one per round")
        for n, (event, turn) in enumerate(zip(events, loop)):
            assert event.get("blocks") == turn["blocks"], (
                f"round {n + 1} persisted the blocks {clip_json(event.get('blocks'), 1000)}, but the model sent "
                f"{clip_json(turn['blocks'], 1000)} (order, values and signatures exactly)")
            results = event.get("tool_results") or ()
            if rounds.by_place:
                got = [(r.get("tool_call_id"), r.get("name")) for r in results]
                want = [(c["id"], c["name"]) for c in _calls(turn)]
                assert got == want, (f"round {n + 1} persisted results for {shown(got)}, expected one per call in "
                                     f"call order ({wire_format.spec.label} pairs answers by their place): {want}")
            else:
                ids = sorted(str(r.get("tool_call_id")) for r in results)
                assert ids == sorted(c["id"] for c in _calls(turn)), (
                    f"round {n + 1} persisted results for {shown(ids)}, expected one per call: "
                    f"{[c['id'] for c in _calls(turn)]}")
            want_input = rounds.question if n == 0 else None
            assert (event.get("input") or None) == want_input, (
                f"round {n + 1} persisted input={shown(event.get('input'))}, expected {shown(want_input)} (the "
                "question on the first round only)")


def _rendered(kernel, events: list[dict]) -> list:
    history = valid(kernel).render_history(events)
    assert isinstance(history, list), f"render_history should return the history as a list, got {shown(history)}"
    return history


def _persisted_outputs(event: dict) -> list[set[str]]:
    """What each call of a persisted round was answered with: its result by id, or by place where calls lack ids."""
    calls, results = _calls(event), event["tool_results"]
    ids = [c["id"] for c in calls]
    if all(ids) and len(set(ids)) == len(ids):
        by_id = {r["tool_call_id"]: r["content"] for r in results}
        return [{by_id[i]} if i in by_id else set() for i in ids]
    return [{r["content"]} for r in results]


@pytest.mark.wire
@pytest.mark.formats(*having("tool_rounds.resumed"))
@given(data=st.data())
@example(data=PINNED)
def test_persisted_rounds_render_as_received(kernel, wire_format, data):
    for events in wire_format.cases(data, "tool_rounds.resumed"):
        history = _rendered(kernel, events)
        _kept(wire_format, history, events, f"rendered: {clip_json(history, 2000)}")


@pytest.mark.wire
@pytest.mark.formats(*having("tool_rounds.resumed"))
@given(data=st.data())
@example(data=PINNED)
def test_rendered_rounds_are_answered_and_questions_kept_in_order(kernel, wire_format, data):
    rounds = wire_format.strategies.tool_rounds
    for events in wire_format.cases(data, "tool_rounds.resumed"):
        history = _rendered(kernel, events)
        wrong = rounds.unanswered(history, events, [_persisted_outputs(e) for e in events])
        assert not wrong, f"{wire_format.spec.label}: {'; '.join(wrong)}; rendered: {clip_json(history, 2000)}"
        asked, want = rounds.questions(history), [e["input"] for e in events if e["input"]]
        assert asked == want, (f"the user's questions in the rendered history say {shown(asked)}, expected each "
                               f"turn's question in order {shown(want)}; rendered: {clip_json(history, 2000)}")


def _resuming(kernel, wire_format, events: list[dict], history: list) -> list:
    """The history of the request that resumes the session: the rendered one as is where the latest turn stopped
    inside its tool loop (the loop goes on after its results), else followed by the history of the kernel's opening
    request of the next turn (whose model answers as the latest turn did)."""
    if events[-1]["tool_results"]:
        return history
    rounds = wire_format.strategies.tool_rounds
    model, _ = _run(kernel, wire_format, [{"blocks": events[-1]["blocks"]}])
    return [*history, *rounds.history(model.requests[0])]


@pytest.mark.wire
@pytest.mark.formats(*having("tool_rounds.resumed"))
@given(data=st.data())
@example(data=PINNED)
def test_the_provider_refuses_nothing_in_the_rendered_history(kernel, wire_format, data):
    rounds = wire_format.strategies.tool_rounds
    for events in wire_format.cases(data, "tool_rounds.resumed"):
        history = _resuming(kernel, wire_format, events, _rendered(kernel, events))
        refused = _refused(wire_format, rounds.body(history), [{"blocks": e["blocks"]} for e in events])
        assert not refused, (f"{wire_format.spec.label} would refuse the request resuming the session: {refused}\n"
                             f"  its history: {clip_json(history, 2000)}")


def _cut_call_carried(wire_format, history: list, where: str) -> None:
    cut = wire_format.strategies.tool_rounds.cut
    faults = cut.faults(history, cut.loop[0])
    assert not faults, f"{where}: {'; '.join(faults)}; history: {clip_json(history, 1500)}"


@pytest.mark.robust
@pytest.mark.formats(*having("tool_rounds.cut"))
def test_a_call_with_cut_arguments_is_carried_as_received(kernel, memory, wire_format):
    rounds = wire_format.strategies.tool_rounds
    loop = rounds.cut.loop
    model, events = _run(kernel, wire_format, loop)
    _cut_call_carried(wire_format, rounds.history(model.requests[1]), "request #2")
    refused = _refused(wire_format, model.requests[1], loop[:1])
    assert not refused, f"{wire_format.spec.label} would refuse request #2: {refused}"
    assert events and events[0].get("blocks") == loop[0]["blocks"], (
        f"the round with the cut call is persisted as {clip_json(events[:1], 1500)}, but the model sent "
        f"{clip_json(loop[0]['blocks'], 1500)}")
    memory = valid(memory)
    loaded = memory.load_blocks(memory.store_blocks(copy.deepcopy(events)))
    assert loaded == events, (
        f"the rounds with the cut call came back from cold storage as {clip_json(loaded, 1500)}, but were stored as "
        f"{clip_json(events, 1500)}")
    _cut_call_carried(wire_format, _rendered(kernel, copy.deepcopy(loaded)), "render_history of the loaded rounds")
