"""Contract: a Gemini kernel sends every model turn back as one content, parts and signatures as received, each call answered, live and resumed.

Incident: `gemini-signature-aggregation` and `gemini-parallel-split` on the
path production runs: the kernel's own tool loop, and a session resumed from
its persisted rounds; `batch-path-pairing` for the function responses.

Rule: in a turn of one or more rounds of parallel calls (ids or none, the
first call signed) and an answer, played by ``ScriptedModel(loop,
format="gemini")`` (each round ``STOP``, as Gemini ends every turn with
calls, with a usage or none), the kernel runs every round's calls and goes
on (``STOP`` does not end a turn whose round made calls), and every
follow-up request the kernel sends (read from the model, never from the
adapter):

- holds one ``model`` content per earlier round, in order, its parts as
  received: kinds in order, texts, each call's name, id (only where it had
  one) and ``args``, each ``thoughtSignature`` byte for byte on the part it
  came on, no part that carries nothing;
- answers each round in the user content right after it: one
  ``functionResponse`` per call, in call order, with the call's name (and id
  where it had one), its ``response`` an object holding what the tool
  returned;
- is refused nothing by Gemini (:mod:`harness.rules.gemini_history`, with the
  turns it sent);
- and each round is persisted with its blocks exactly as received and one
  result per call, the question on the first round only.

``render_history(events)`` of persisted rounds (several turns, possibly cut
inside the latest turn's loop) gives contents holding each round's model
content as received, each answered in the user content after it, each
turn's question in order, that Gemini refuses nothing.

Level: wire (Gemini's history rules and the 400s it answers).

Production fingerprint: the request after a tool round, or the first of a
resumed session, fails with "Function call is missing a thought_signature in
functionCall parts", "Corrupted thought signature." or "Please ensure that
the number of function response parts is equal to the number of function
call parts of the function call turn".
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.testing.gemini_incident import PARALLEL, SIGNED_ANSWER, WITH_IDS
from harness.contracts.gemini_parts_kept import assert_parts_kept
from harness.rules.gemini_history import parts_of, refusals
from harness.testing import ScriptedModel, ScriptedTool, gemini_persisted_rounds as persisted_rounds
from harness.testing import gemini_tool_loops as tool_loops, gemini_wire_content as wire_content
from harness.testing.gemini_history import calls_of, results_for
from harness.testing.scripted import ended
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("gemini")]

QUESTION = "What is the weather in Zürich and Oslo, and the time?"
PINNED = [ended(PARALLEL, "gemini", 0), SIGNED_ANSWER]  # the incident's round, as an endpoint that sends no usage


def _run(kernel, loop: list[dict]) -> tuple[ScriptedModel, list[dict]]:
    model = ScriptedModel(loop, format="gemini")
    names = sorted({c["name"] for turn in loop for c in calls_of(turn)})
    events = valid(kernel).run_turn(QUESTION, model, [ScriptedTool(name) for name in names])["events"]
    assert not model.shortfall(), model.shortfall()
    return model, events


def _contents(body: object) -> list:
    found = body.get("contents") if isinstance(body, dict) else body
    return found if isinstance(found, list) else []


def _models(contents: list) -> list[tuple[int, dict]]:
    return [(n, c) for n, c in enumerate(contents) if isinstance(c, dict) and c.get("role") == "model"]


def _tool_outputs(call: dict) -> set[str]:
    # A call with no arguments may reach the tool as "" or as "{}".
    args = {call["arguments"], "{}"} if call["arguments"] == "" else {call["arguments"]}
    return {f"{call['name']} -> {a}" for a in args}


def _answers(contents: list, turns: list, outputs: list) -> list[str]:
    """What is wrong with the responses: each round answered, in order, in the user content after its model content.

    ``outputs[k]`` is the set of texts each call of round ``k`` may carry, in call order.
    """
    wrong = []
    for k, ((n, _), turn) in enumerate(zip(_models(contents), turns)):
        calls = calls_of(turn)
        if not calls:
            continue
        after = contents[n + 1] if n + 1 < len(contents) else {}
        responses = [p.get("functionResponse") for p in parts_of(after) if isinstance(p, dict)
                     and "functionResponse" in p] if isinstance(after, dict) and after.get("role") == "user" else []
        names = [r.get("name") if isinstance(r, dict) else r for r in responses]
        if names != [c["name"] for c in calls]:
            wrong.append(f"round {k + 1}: the user content after it answers {shown(names)}, expected one "
                         f"functionResponse per call in order {[c['name'] for c in calls]}")
            continue
        for j, (r, c) in enumerate(zip(responses, calls)):
            if (r.get("id") or "") != c["id"]:
                wrong.append(f"round {k + 1}, call {j}: response id {shown(r.get('id'))}, expected {shown(c['id'] or None)}")
            body = r.get("response")
            if not isinstance(body, dict) or not set(map(str, body.values())) & outputs[k][j]:
                wrong.append(f"round {k + 1}, call {j}: response {shown(body)} should be an object holding one of "
                             f"{shown(sorted(outputs[k][j]))}")
    return wrong


@given(loop=tool_loops())
@example(loop=PINNED)
@example(loop=[WITH_IDS, SIGNED_ANSWER])
def test_the_next_request_carries_every_model_turn_as_received(kernel, loop):
    model, _ = _run(kernel, loop)
    for n, request in enumerate(model.requests[1:], 2):
        contents = _contents(request)
        where = f"request #{n}: {clip_json(contents, 2000)}"
        models = _models(contents)
        assert len(models) == n - 1, f"{len(models)} model contents, expected one per earlier round ({n - 1}); {where}"
        for k, ((_, content), turn) in enumerate(zip(models, loop)):
            assert_parts_kept(parts_of(content), wire_content(turn)["parts"], f"round {k + 1}; {where}")


@given(loop=tool_loops())
@example(loop=PINNED)
@example(loop=[WITH_IDS, SIGNED_ANSWER])
def test_every_round_is_answered_in_the_next_user_content(kernel, loop):
    model, _ = _run(kernel, loop)
    outputs = [[_tool_outputs(c) for c in calls_of(turn)] for turn in loop]
    for n, request in enumerate(model.requests[1:], 2):
        contents = _contents(request)
        wrong = _answers(contents, loop[:n - 1], outputs)
        assert not wrong, f"request #{n}: {'; '.join(wrong)}; contents: {clip_json(contents, 2000)}"


@given(loop=tool_loops())
@example(loop=PINNED)
def test_gemini_refuses_no_request_of_the_loop(kernel, loop):
    model, _ = _run(kernel, loop)
    for n, request in enumerate(model.requests, 1):
        refused = refusals(request, sent=loop[:n - 1])
        assert not refused, (f"Gemini would answer request #{n} with 400: {[(r.path, r.message) for r in refused]}\n"
                             f"  contents: {clip_json(_contents(request), 2000)}")


@given(loop=tool_loops())
@example(loop=PINNED)
def test_each_round_is_persisted_as_received(kernel, loop):
    _, events = _run(kernel, loop)
    assert len(events) == len(loop), f"{len(events)} events persisted for {len(loop)} rounds; expected one per round"
    for n, (event, turn) in enumerate(zip(events, loop)):
        assert event.get("blocks") == turn["blocks"], (
            f"round {n + 1} persisted the blocks {clip_json(event.get('blocks'), 1000)}, but the model sent "
            f"{clip_json(turn['blocks'], 1000)} (order, values and signatures exactly)")
        got = [(r.get("tool_call_id"), r.get("name")) for r in event.get("tool_results") or ()]
        want = [(c["id"], c["name"]) for c in calls_of(turn)]
        assert got == want, f"round {n + 1} persisted results for {shown(got)}, expected one per call in order: {want}"
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
    {"input": QUESTION, "blocks": PARALLEL["blocks"], "timestamp": 1.0,
     "tool_results": results_for(PARALLEL, ["12", "4", ""])},
    {"input": None, "blocks": SIGNED_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
    {"input": "And tomorrow?", "blocks": WITH_IDS["blocks"], "timestamp": 2.0,
     "tool_results": results_for(WITH_IDS, ["rain", "snow", "09:00"])},
]


def _rendered(kernel, events: list[dict]) -> list:
    contents = valid(kernel).render_history(events)
    assert isinstance(contents, list), f"render_history should return the contents, got {shown(contents)}"
    return contents


@given(events=_resumed())
@example(events=_PINNED_EVENTS)
def test_persisted_rounds_render_as_received(kernel, events):
    contents = _rendered(kernel, events)
    where = f"contents: {clip_json(contents, 2000)}"
    models = _models(contents)
    assert len(models) == len(events), f"{len(models)} model contents for {len(events)} rounds; {where}"
    for k, ((_, content), event) in enumerate(zip(models, events)):
        assert_parts_kept(parts_of(content), wire_content(event)["parts"], f"round {k + 1}; {where}")


@given(events=_resumed())
@example(events=_PINNED_EVENTS)
def test_rendered_rounds_are_answered_and_questions_kept_in_order(kernel, events):
    contents = _rendered(kernel, events)
    outputs = [[{r["content"]} for r in e["tool_results"]] for e in events]
    wrong = _answers(contents, events, outputs)
    assert not wrong, f"{'; '.join(wrong)}; contents: {clip_json(contents, 2000)}"
    asked = [p.get("text") for c in contents if isinstance(c, dict) and c.get("role") == "user"
             for p in parts_of(c) if isinstance(p, dict) and "text" in p]
    want = [e["input"] for e in events if e["input"]]
    assert asked == want, f"the user contents ask {shown(asked)}, expected each turn's question in order {shown(want)}"


@given(events=_resumed())
@example(events=_PINNED_EVENTS)
def test_gemini_refuses_nothing_in_the_rendered_history(kernel, events):
    contents = _rendered(kernel, events)
    refused = refusals({"contents": contents}, sent=[{"blocks": e["blocks"]} for e in events])
    assert not refused, (f"Gemini would answer the resumed session with 400: {[(r.path, r.message) for r in refused]}\n"
                         f"  contents: {clip_json(contents, 2000)}")
