"""The loopback provider's OpenAI Responses route: scenarios, the strict profile's answers, deliveries."""

from __future__ import annotations

import json

import httpx
import pytest

from harness.loopback.delivery import MODES, Delivery
from harness.loopback.responses_format import MISSING_KEY, RESPONSES, SCENARIOS
from harness.loopback.server import LoopbackProvider
from harness.loopback.strict_route import FormatRoute
from harness.reference import responses_adapter
from harness.reference.sse import StreamError
from harness.rules import responses_history as rules
from harness.wire.sse import events

KEY = {"Authorization": "Bearer loopback-key"}
TOOLS = [{"type": "function", "name": "get_weather",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
         {"type": "function", "name": "list_cities", "parameters": {"type": "object", "properties": {}}}]
PROMPT = {"role": "user", "content": "What is the weather in Zürich?"}
CALLING = [name for name, s in SCENARIOS.items() if name != "stream-error"]


def _body(items, stream=False):
    return {"model": "gpt-5", "input": items, "tools": TOOLS, "store": False, "stream": stream,
            "include": ["reasoning.encrypted_content"]}


def _post(provider, body, headers=KEY):
    return httpx.post(provider.origin + "/v1/responses", json=body, headers=headers, timeout=10)


def _provider(scenario, delivery=None):
    route = FormatRoute(RESPONSES, scenario)
    return LoopbackProvider(routes=(route,), **({"delivery": delivery} if delivery else {}))


def _whole(response):
    """The output items of a non-streamed answer, as they go back: verbatim."""
    return response.json()["output"]


def _streamed(response):
    """The output items of a streamed answer, decoded and written back by the reference codec."""
    turn = responses_adapter.parse_stream(response.content)
    return responses_adapter.serialize_message({"role": "assistant", "blocks": turn["blocks"]})


def _outputs(items):
    return [{"type": "function_call_output", "call_id": i["call_id"], "output": "18 °C"} for i in items
            if i["type"] == "function_call"]


def _loop(provider, stream=False, edit=lambda items: items, rounds=6, turns=1):
    """A conversation of ``turns`` prompts, each a tool loop replaying every answer's items (after ``edit``) with
    an output per call; every response, in order (it stops at the first refusal)."""
    items, answers = [], []
    for turn in range(turns):
        items.append({**PROMPT, "content": f"{PROMPT['content']} (turn {turn + 1})"})
        for _ in range(rounds):
            response = _post(provider, _body(items, stream))
            answers.append(response)
            if response.status_code != 200:
                return answers
            output = _streamed(response) if stream else _whole(response)
            items = [*items, *edit(output), *_outputs(output)]
            if not _outputs(output):
                break
        else:
            raise AssertionError(f"the tool loop did not end in {rounds} rounds: {[a.text[:300] for a in answers]}")
    return answers


def test_without_a_bearer_key_the_answer_is_openais_401():
    with _provider("reasoning-tools") as provider:
        response = _post(provider, _body([PROMPT]), headers={})
    assert response.status_code == 401, response.text
    assert response.json() == {"error": {"message": MISSING_KEY, "type": "invalid_request_error", "param": None,
                                         "code": None}}, response.text


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("scenario", CALLING)
def test_a_faithful_replay_is_accepted_round_after_round(scenario, stream):
    with _provider(scenario) as provider:
        answers = _loop(provider, stream, turns=SCENARIOS[scenario].user_turns)
        violations = provider.record.violations
    assert [a.status_code for a in answers] == [200] * len(answers), [a.text[:300] for a in answers]
    assert len(answers) > SCENARIOS[scenario].user_turns, f"{scenario}: expected a tool round, got {len(answers)}"
    assert violations == [], [v.describe() for v in violations]


@pytest.mark.parametrize("scenario", CALLING)
def test_a_stream_decodes_to_the_turn_the_profile_remembers(scenario):
    with _provider(scenario) as provider:
        response = _post(provider, _body([PROMPT], stream=True))
        sent = provider.route("openai-responses").profile.sent
    assert response.status_code == 200, response.text
    assert len(sent) == 1, f"expected the one turn streamed to be remembered, got {len(sent)}"
    decoded = responses_adapter.parse_stream(response.content)
    assert decoded["blocks"] == sent[0]["blocks"], (decoded["blocks"], sent[0]["blocks"])
    assert decoded["stop_reason"] == "completed", decoded


def test_the_scenarios_send_reasoning_before_every_call():
    with _provider("parallel-calls") as provider:
        kinds = [i["type"] for i in _whole(_post(provider, _body([PROMPT])))]
    assert kinds == ["reasoning"] + ["function_call"] * 6, kinds


def _drop_reasoning(items):
    return [i for i in items if i["type"] != "reasoning"]


def _strip_encrypted(items):
    return [{k: v for k, v in i.items() if k != "encrypted_content"} for i in items]


def _edit_encrypted(items):
    return [{**i, "encrypted_content": "x" + i["encrypted_content"]} if i["type"] == "reasoning" else i
            for i in items]


def _drop_summary(items):
    return [{k: v for k, v in i.items() if k != "summary"} for i in items]


def _reasoning_last(items):
    return _drop_reasoning(items) + [i for i in items if i["type"] == "reasoning"]


# edit, the rules it breaks, the status and text of the first one's answer (formatted from the request).
BREAKS = {
    "drop-reasoning": (_drop_reasoning, [rules.CALL_WITH_REASONING], 400, rules.WITH_REASONING_TEXT),
    "strip-encrypted": (_strip_encrypted, [rules.NOT_STORED], 404, rules.NOT_STORED_TEXT),
    "edit-encrypted": (_edit_encrypted, [rules.ENCRYPTED_UNCHANGED], 400, rules.ENCRYPTED_TEXT),
    "drop-summary": (_drop_summary, [rules.SUMMARY_REQUIRED], 400, rules.SUMMARY_TEXT),
    "reasoning-last": (_reasoning_last, [rules.CALL_WITH_REASONING, rules.REASONING_FOLLOWED], 400,
                       rules.WITH_REASONING_TEXT),
}


@pytest.mark.parametrize("name", BREAKS)
def test_each_broken_replay_gets_openais_answer(name):
    edit, broken, status, text = BREAKS[name]
    with _provider("reasoning-tools") as provider:
        answers = _loop(provider, edit=edit)
        violations = provider.record.violations
        exchange = provider.record.exchanges[-1]
    request, refused = exchange.json, answers[-1]
    assert refused.status_code == status, f"{name}: expected HTTP {status}, got {refused.status_code}: {refused.text}"
    error = refused.json()["error"]
    assert error["type"] == "invalid_request_error" and error["param"] == "input", error
    first = violations[0].message_index  # the first refusal in input order is the one answered
    sent_rs = provider.route("openai-responses").profile.sent[0]["blocks"][0]["item_id"]
    expected = text.format(id=request["input"][first].get("id"), rs=sent_rs, n=first)
    assert error["message"] == expected, f"{name}: expected {expected!r}, got {error['message']!r}"
    shown = exchange.excerpt(first)
    assert shown.startswith(f"input[{first}] = ") and request["input"][first]["id"] in shown, shown
    assert sorted(v.rule for v in violations) == sorted(broken), [v.describe() for v in violations]
    assert (violations[0].rule, violations[0].status) == (broken[0], status), [v.describe() for v in violations]


def test_an_output_without_its_call_is_refused():
    with _provider("reasoning-tools") as provider:
        stray = {"type": "function_call_output", "call_id": "call_none", "output": "1"}
        response = _post(provider, _body([PROMPT, stray]))
    assert response.status_code == 400, response.text
    assert response.json()["error"]["message"] == rules.OUTPUT_TEXT.format(call_id="call_none"), response.text


def test_a_scripted_failure_is_an_error_event_mid_stream_or_a_500():
    with _provider("stream-error") as provider:
        streamed = _post(provider, _body([PROMPT], stream=True))
        whole = _post(provider, _body([PROMPT]))
        remembered = provider.route("openai-responses").profile.sent
    data = [json.loads(d) for d in events(streamed.content)]
    assert streamed.status_code == 200 and data[-1]["type"] == "error", data
    assert "response.completed" not in [d["type"] for d in data], data
    with pytest.raises(StreamError, match="error mid-stream"):
        responses_adapter.parse_stream(streamed.content)
    assert whole.status_code == 500 and whole.json()["error"]["type"] == "server_error", whole.text
    assert remembered == [], "a failed turn is not history, so it must not be remembered as sent"


@pytest.mark.parametrize("mode", [m for m in MODES if m != "whole"])
def test_every_delivery_cut_applies_to_the_responses_stream(mode):
    delivery = Delivery(mode, 5 if mode == "bytes" else 0)
    with _provider("reasoning-tools") as whole_provider:
        whole = _post(whole_provider, _body([PROMPT], stream=True)).content
    with _provider("reasoning-tools", delivery) as provider:
        cut = _post(provider, _body([PROMPT], stream=True)).content
        exchange = provider.record.exchanges[-1]
    assert exchange.pieces > 1, f"{mode}: the stream went out in one piece"
    assert cut == delivery.body(whole), f"{mode}: the pieces joined are not the stream"
    assert events(cut) == events(whole), f"{mode}: the cut stream does not carry the same events"


@pytest.mark.parametrize("allowed, called", [(frozenset({"list_cities"}), {"list_cities"}), (frozenset(), set())])
def test_only_the_tools_allowed_are_called(allowed, called):
    with LoopbackProvider(routes=(FormatRoute(RESPONSES, "parallel-calls", allowed_tools=allowed),)) as provider:
        output = _whole(_post(provider, _body([PROMPT])))
    names = {i["name"] for i in output if i["type"] == "function_call"}
    assert names == called, f"allowed {sorted(allowed)}: expected calls to {sorted(called)}, got {sorted(names)}"
    assert any(i["type"] == "message" for i in output) or called, f"a round without calls must answer: {output}"
