"""Contract: every round of a turn is sent, run and persisted as it happened: its text, its calls in order, its time.

Incident: incident `batch-path-pairing`: the persisted events, not the
in-memory messages, are what every later request is rendered from, and the
first regression test only ever took the tidy path (one kind of tool, one
round, no text). The rounds models really produce are untidy: text beside the
tool calls ("Let me check both files."), a call to a tool the turn does not
offer, parallel-safe and unsafe tools in one round, a tool that returns
nothing, several tool rounds in a row. Each persisted event also carries the
time it was written: cold storage keys its blocks by that timestamp
(incident `deepseek-reasoning-400` lost whole events to a zero one). A
round is a tool round because it made calls, not because of its finish
reason (incidents `anthropic-stop-reason` and `gemini-stream-drops-calls`:
a call read by its stop reason is a call nothing runs), and gateways end tool
rounds with ``stop`` or no finish reason at all.

Rule: in a turn of several tool rounds and a final answer (the tool rounds
ending as gateways end them: ``finish_reason: "stop"`` or none at all),

- a round that made calls is a tool round whatever its finish reason says:
  its calls run and the turn goes on;

- every request the kernel sends is a chat-completions body: ``model``,
  ``messages`` and the offered ``tools`` on every round, and no top-level key
  the format does not define;
- the text the model wrote beside its calls goes back in the follow-up as
  that assistant message's ``content``, and is persisted as the round's
  ``response``;
- each call is answered by one tool message, right after its assistant
  message (paired by its id, in any order: the order the model made the
  calls is a robust test of its own), also for a tool the turn
  does not offer (the turn goes on: that call is answered with an error text
  the model can read, and nothing runs); a tool that returns nothing is
  answered with ``""``;
- a tool that is not parallel-safe never runs while another tool runs
  (counted by the scripted tools' probe, never by timings; a kernel that fans
  the mixed round out on a pool is held until the two are inside together);
  every offered tool runs once per call;
- each round is persisted in order (the script makes the first round's calls
  finish last first, so the order they complete in is never the model's): its calls in the model's order, each
  result under its call id in the same order, ``tools_used`` naming each tool
  that ran in that round once, and no other, ``input`` the question on the first round and ``""`` after,
  and a ``timestamp`` in Unix seconds read from the clock while the turn ran,
  never decreasing from one round to the next;
- the caller's list of tools is left as it was;
- robust: a call whose arguments were cut off (the same turn with one more
  call in round 2, its arguments a cut JSON text) is carried as the model
  made it: the follow-up request replays every call of the round with its id,
  name and arguments byte for byte, answers the cut one (what the tool
  returned, or an error text: running it is the kernel's decision), and the
  round is persisted with it as made and its result.

Level: wire (the conversation the format carries, the pairing of its tool
messages, and the request body's keys); robust for the tool messages in
the calls' order (the format pairs by id; strict gateways expect the order)
and for the cut call (the provider sends one only when the token limit or a
gateway cuts the stream).

Production fingerprint: behind a gateway that ends tool rounds with
``stop``, the turn ends on the model's "Let me read all three files." and
no tool ever runs; the model repeats "Let me check" every round (its own
text never came back); a turn that dies on ``KeyError: 'delete_file'`` when the
model calls a tool it was not given; a non-thread-safe tool run beside
another; events persisted with ``timestamp: 0`` whose blocks collide in cold
storage.
"""

import time

import pytest

from harness.clip import clip_json, shown
from harness.contracts.turns import (
    OFFERED,
    QUESTION,
    CUT,
    CUT_ROUNDS,
    ROUND_1,
    ROUND_2,
    ROUNDS,
    UNSAFE,
    answers,
    as_made,
    expected_output,
    replayed,
    tools as untidy_tools,
    unsafe_overlaps,
)
from harness.testing import ScriptedModel, content_text, pairing_violations
from harness.under_test.invoke import valid

# Every top-level key of a chat-completions request body (OpenAI's reference, and the provider
# extensions the harness's options name: thinking, reasoning_effort).
REQUEST_KEYS = {
    "model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stream", "stream_options", "temperature",
    "top_p", "n", "stop", "max_tokens", "max_completion_tokens", "presence_penalty", "frequency_penalty",
    "logit_bias", "logprobs", "top_logprobs", "user", "seed", "response_format", "reasoning_effort", "metadata",
    "store", "service_tier", "modalities", "audio", "prediction", "web_search_options", "verbosity",
    "prompt_cache_key", "safety_identifier", "thinking",
}


def _turn(kernel, rounds: list[dict] = ROUNDS):
    tools = untidy_tools()
    given = list(tools)
    model = ScriptedModel(rounds)
    started = time.time()
    events = valid(kernel).run_turn(QUESTION, model, tools)["events"]
    finished = time.time()
    given[0].probe.raise_if_stalled()
    assert tools == given and all(a is b for a, b in zip(tools, given)), (
        f"the tools list given to run_turn became {[t.name for t in tools]}, but should be left as it was: "
        f"{[t.name for t in given]}"
    )
    assert not model.shortfall(), (
        f"{model.shortfall()} (round 2 also calls a tool the turn does not offer: the turn goes on after it too)"
    )
    return model, tools, events, (started, finished)


@pytest.mark.wire
def test_requests_are_chat_completion_bodies(kernel):
    model, tools, _, _ = _turn(kernel)
    offered = sorted(OFFERED)
    for n, request in enumerate(model.requests, 1):
        unknown = sorted(set(request) - REQUEST_KEYS)
        names = sorted((t.get("function") or {}).get("name") for t in request.get("tools") or ())
        assert not unknown, (
            f"request #{n} has the keys {shown(sorted(request))}, of which {shown(unknown)} are unknown to the "
            "chat-completions format; every request should carry only keys the format defines"
        )
        assert isinstance(request.get("model"), str) and request.get("model"), (
            f"request #{n} has model={shown(request.get('model', '<absent>'))}; every request should name a model"
        )
        assert names == offered, (
            f"request #{n} offers the tools {shown(names)}; every request should offer {shown(offered)}"
        )


@pytest.mark.wire
def test_follow_ups_carry_the_text_and_answer_every_call(kernel):
    model, tools, _, _ = _turn(kernel)
    for n, (request, calls) in enumerate(zip(model.requests[1:], (ROUND_1, ROUND_2)), 2):
        messages = request.get("messages") or []
        problems = pairing_violations(messages)
        assert not problems, (
            f"request #{n} breaks the pairing rule: {shown(problems)}; messages {clip_json(messages, 1500)}"
        )
        at = next((k for k, m in enumerate(messages) if [c.get("id") for c in m.get("tool_calls") or ()]
                   == [c["id"] for c in calls]), None)
        assert at is not None, (
            f"request #{n} has no assistant message with the calls {shown([c['id'] for c in calls])} in the model's "
            f"order; messages {clip_json(messages, 1500)}"
        )
        said = ROUNDS[n - 2]["content"]
        assert (content_text(messages[at].get("content")) or "") == said, (
            f"request #{n}: the assistant message with the calls has content={shown(messages[at].get('content'))}, but "
            f"the model wrote {said!r} beside them"
        )
        answers = messages[at + 1 : at + 1 + len(calls)]
        ids = [m.get("tool_call_id") for m in answers]
        # The format pairs a tool message with its call by id, in any order (the order is the robust test below).
        assert sorted(map(str, ids)) == sorted(c["id"] for c in calls) and all(
            m.get("role") == "tool" for m in answers), (
            f"request #{n}: the messages after the calls answer {shown(ids)}, but should be one tool message per call, "
            f"right after the calls: {[c['id'] for c in calls]} in any order"
        )
        by_id = {m.get("tool_call_id"): m for m in answers}
        for call in calls:
            want = expected_output(call)
            content = content_text(by_id.get(call["id"], {}).get("content"))
            if want is None:
                assert isinstance(content, str) and content.strip(), (
                    f"request #{n}: the call {call['id']} to {call['name']!r}, a tool the turn does not offer, is "
                    f"answered with content={shown(content)}; it should get an error text the model can read"
                )
            else:
                assert content == want, (
                    f"request #{n}: the tool message for {call['id']} has content={shown(content)}, but the tool "
                    f"returned {want!r}"
                )



@pytest.mark.robust
def test_tool_messages_follow_the_order_of_their_calls(kernel):
    """Robust: the answers in the order the model made the calls.

    The format pairs a tool message with its call by id, so a kernel that answers in completion order is
    correct on the wire; a gateway that translates to a positional format, and a reader of the history,
    still see the calls and their answers out of step.
    """
    model, _, _, _ = _turn(kernel)
    for n, (request, calls) in enumerate(zip(model.requests[1:], (ROUND_1, ROUND_2)), 2):
        messages = request.get("messages") or []
        at = next((k for k, m in enumerate(messages) if m.get("tool_calls")
                   and sorted(c.get("id") for c in m["tool_calls"]) == sorted(c["id"] for c in calls)), None)
        assert at is not None, f"request #{n} has no assistant message with the calls {shown([c['id'] for c in calls])}"
        ids = [m.get("tool_call_id") for m in messages[at + 1 : at + 1 + len(calls)]]
        assert ids == [c["id"] for c in calls], (
            f"request #{n}: the tool messages after the calls answer {shown(ids)}, expected the order the model made "
            f"the calls: {[c['id'] for c in calls]}"
        )

@pytest.mark.wire
def test_tools_run_once_per_call_and_unsafe_ones_alone(kernel):
    _, tools, _, _ = _turn(kernel)
    want = {name: sorted(c["arguments"] for c in ROUND_1 + ROUND_2 if c["name"] == name) for name in OFFERED}
    ran = {tool.name: sorted(run.arguments for run in tool.runs) for tool in tools}
    assert ran == want, f"the tools ran with {shown(ran)}, but should have run once per call: {want}"
    overlaps = unsafe_overlaps(tools[0].probe)
    assert not overlaps, (
        f"a tool that is not parallel-safe ({sorted(UNSAFE)}) ran beside another: {shown(overlaps)}; it must run alone "
        f"(round 2 asked for {[c['name'] for c in ROUND_2]})"
    )


@pytest.mark.wire
def test_each_round_is_persisted_in_order_at_its_time(kernel):
    _, tools, events, (started, finished) = _turn(kernel)
    assert len(events) == len(ROUNDS), f"{len(events)} events persisted, but the turn had {len(ROUNDS)} rounds"
    stamps = [e.get("timestamp") for e in events]
    for n, (event, script) in enumerate(zip(events, ROUNDS)):
        calls = script.get("tool_calls") or []
        want_input = QUESTION if n == 0 else ""
        assert event.get("input") == want_input, (
            f"event #{n}: input={shown(event.get('input'))}, but should be {want_input!r} (the question once, on the "
            "round that answered it)"
        )
        assert (event.get("response") or "") == script["content"], (
            f"event #{n}: response={shown(event.get('response'))}, but the model wrote {shown(script['content'])}"
        )
        ids = [c.get("id") for c in event.get("tool_calls") or []]
        results = [r.get("tool_call_id") for r in event.get("tool_results") or []]
        want = [c["id"] for c in calls]
        assert ids == want and results == want, (
            f"event #{n}: tool_calls {shown(ids)} and tool_results {shown(results)}, but both should be {want}, the "
            "model's order"
        )
        outputs = [r.get("content") for r in event.get("tool_results") or []]
        for call, output in zip(calls, outputs):
            expected = expected_output(call)
            should = repr(expected) if expected is not None else "an error text"
            assert output == expected or (expected is None and isinstance(output, str) and output.strip()), (
                f"event #{n}: the result of {call['id']} is {shown(output)}, but should be {should}"
            )
        named = list(event.get("tools_used") or [])
        used = set(named)
        ran = {c["name"] for c in calls if c["name"] in OFFERED}
        asked = {c["name"] for c in calls}
        assert ran <= used <= asked and len(named) == len(used), (
            f"event #{n}: tools_used={shown(named)}, but should name each tool that ran in this round once "
            f"({sorted(ran)}) and none from another round (this round asked for {sorted(asked)})"
        )
    ok = all(isinstance(s, (int, float)) and not isinstance(s, bool) and started - 1 <= s <= finished + 1
             for s in stamps)
    assert ok and stamps == sorted(stamps), (
        f"the events carry the timestamps {shown(stamps)}, but each should be the Unix time in seconds at which its "
        f"round was persisted (the turn ran from {started:.3f} to {finished:.3f}), never decreasing"
    )


@pytest.mark.robust
def test_a_call_with_cut_arguments_is_carried_as_the_model_made_it(kernel):
    model, _, events, _ = _turn(kernel, CUT_ROUNDS)
    calls = CUT_ROUNDS[1]["tool_calls"]
    messages = model.requests[2].get("messages") or []
    at = next((k for k, m in enumerate(messages) if CUT["id"] in {c.get("id") for c in m.get("tool_calls") or ()}),
              None)
    assert at is not None, f"request #3 has no assistant message with the cut call {CUT['id']}: {clip_json(messages, 1500)}"
    assert replayed(messages[at]) == as_made(calls), (
        f"request #3 replays round 2's calls as {shown(replayed(messages[at]))}, but the model made them "
        f"{shown(as_made(calls))}: each call's id, name and arguments go back byte for byte, cut ones included"
    )
    answer = [m for m in messages[at + 1:] if m.get("role") == "tool" and m.get("tool_call_id") == CUT["id"]]
    content = content_text(answer[0].get("content")) if answer else "<no tool message>"
    assert len(answer) == 1 and answers(CUT, content), (
        f"request #3 answers the cut call {CUT['id']} with {shown(content)} ({len(answer)} tool messages); it should "
        f"get one: what the tool returned, {expected_output(CUT)!r}, or an error text the model can read"
    )
    event = events[1] if len(events) > 1 else {}
    persisted = [(c.get("id"), c.get("name"), c.get("arguments")) for c in event.get("tool_calls") or ()]
    results = [r.get("tool_call_id") for r in event.get("tool_results") or ()]
    assert persisted == as_made(calls) and CUT["id"] in results, (
        f"round 2 is persisted with the calls {shown(persisted)} and results for {shown(results)}, but should hold the "
        f"calls as made, {shown(as_made(calls))}, and a result for the cut call {CUT['id']}"
    )
