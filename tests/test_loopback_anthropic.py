"""The loopback provider's Anthropic Messages route: scenarios, the strict profile's answers, deliveries."""

from __future__ import annotations

import json

import httpx
import pytest

from harness.loopback.anthropic_format import ANTHROPIC
from harness.loopback.delivery import MODES, Delivery
from harness.loopback.server import LoopbackProvider
from harness.loopback.strict_route import FormatRoute
from harness.rules.anthropic_history import SIGNATURE_TEXT, UNMODIFIED_TEXT
from harness.wire.sse import events

KEY = {"x-api-key": "loopback-key"}
TOOLS = [{"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                                                  "required": ["city"]}},
         {"name": "list_cities", "input_schema": {"type": "object", "properties": {}}}]


def _body(messages, stream=False):
    return {"model": "claude-test", "max_tokens": 4096, "thinking": {"type": "enabled", "budget_tokens": 1024},
            "tools": TOOLS, "stream": stream, "messages": messages}


def _post(provider, body, headers=KEY):
    return httpx.post(provider.route_url("anthropic") + "/v1/messages", json=body, headers=headers, timeout=10)


def _results(content):
    return [{"type": "tool_result", "tool_use_id": b["id"], "content": "18 °C"} for b in content
            if b["type"] == "tool_use"]


def _loop(provider, edit=lambda content: content, rounds=6):
    """A tool loop replaying each answer (after ``edit``) with a result per tool_use; every response, in order."""
    messages, answers = [{"role": "user", "content": "What is the weather in Zürich?"}], []
    for _ in range(rounds):
        response = _post(provider, _body(messages))
        answers.append(response)
        if response.status_code != 200 or response.json()["stop_reason"] != "tool_use":
            return answers
        content = response.json()["content"]
        messages += [{"role": "assistant", "content": edit(content)}, {"role": "user", "content": _results(content)}]
    raise AssertionError(f"the tool loop did not end in {rounds} rounds: {[a.json() for a in answers]}")


def _provider(scenario, delivery=None):
    return LoopbackProvider(routes=(FormatRoute(ANTHROPIC, scenario),), **({"delivery": delivery} if delivery else {}))


def test_without_an_api_key_the_answer_is_anthropics_401():
    with _provider("interleaved-thinking") as provider:
        response = _post(provider, _body([{"role": "user", "content": "hi"}]), headers={})
    assert response.status_code == 401, response.text
    assert response.json() == {"type": "error", "error": {"type": "authentication_error",
                                                          "message": "x-api-key header is required"}}


@pytest.mark.parametrize("scenario", ["interleaved-thinking", "redacted-thinking", "zero-argument-tool",
                                      "parallel-12"])
def test_a_faithful_replay_is_accepted_round_after_round(scenario):
    with _provider(scenario) as provider:
        answers = _loop(provider)
        violations = provider.record.violations
    assert [a.status_code for a in answers] == [200] * len(answers), [a.text for a in answers]
    assert len(answers) >= 2, f"{scenario}: expected at least one tool round before the answer"
    assert answers[-1].json()["stop_reason"] == "end_turn", answers[-1].text
    assert violations == [], [v.describe() for v in violations]


def test_the_scenarios_stream_the_incident_shapes():
    shapes = {}
    for scenario in ("interleaved-thinking", "redacted-thinking", "zero-argument-tool", "parallel-12"):
        with _provider(scenario) as provider:
            shapes[scenario] = [b["type"] for b in _loop(provider)[0].json()["content"]]
    assert shapes["interleaved-thinking"] == ["thinking", "tool_use"]
    assert shapes["redacted-thinking"] == ["redacted_thinking", "thinking", "tool_use"]
    assert shapes["zero-argument-tool"] == ["thinking", "tool_use"]
    assert shapes["parallel-12"] == ["thinking"] + ["tool_use"] * 12
    with _provider("interleaved-thinking") as provider:
        second = [b["type"] for b in _loop(provider)[1].json()["content"]]
    assert second == ["thinking", "text", "tool_use", "thinking", "tool_use"], second


def test_a_zero_argument_tool_streams_only_an_empty_partial_json():
    with _provider("zero-argument-tool") as provider:
        response = _post(provider, _body([{"role": "user", "content": "Which cities?"}], stream=True))
    data = [json.loads(d) for d in events(response.content)]
    pieces = [d["delta"]["partial_json"] for d in data if d["type"] == "content_block_delta"
              and d["delta"]["type"] == "input_json_delta"]
    starts = [d["content_block"] for d in data if d["type"] == "content_block_start"]
    assert pieces == [""], pieces
    assert starts[-1]["name"] == "list_cities" and starts[-1]["input"] == {}, starts


def _reorder(content):
    """The regrouping incident: every thinking block first, then the rest."""
    return [b for b in content if b["type"] == "thinking"] + [b for b in content if b["type"] != "thinking"]


def _unsign(content):
    return [{**b, "signature": ""} if b["type"] == "thinking" else b for b in content]


@pytest.mark.parametrize("edit, text", [(_reorder, UNMODIFIED_TEXT), (_unsign, SIGNATURE_TEXT)],
                         ids=["reorder-thinking", "drop-signature"])
def test_a_changed_thinking_block_gets_anthropics_400(edit, text):
    with _provider("interleaved-thinking") as provider:
        answers = _loop(provider, edit)
        violations = provider.record.violations
    refused = answers[-1]
    assert refused.status_code == 400, [a.text for a in answers]
    error = refused.json()
    assert error["type"] == "error" and error["error"]["type"] == "invalid_request_error", error
    path = error["error"]["message"].partition(": ")[0]
    assert error["error"]["message"] == text.format(path=path), error
    assert [v.rule for v in violations] == ["anthropic-thinking-unmodified"], [v.describe() for v in violations]
    assert violations[0].message_index == int(path.split(".")[1]), (path, violations[0])


def test_without_the_turns_sent_an_unsigned_thinking_block_is_refused_by_its_signature():
    with _provider("interleaved-thinking") as provider:
        messages = [{"role": "user", "content": "hi"},
                    {"role": "assistant", "content": [{"type": "thinking", "thinking": "x", "signature": ""},
                                                      {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
                                                       "input": {}}]},
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "1"}]}]
        response = _post(provider, _body(messages))
    assert response.status_code == 400, response.text
    assert response.json()["error"]["message"] == SIGNATURE_TEXT.format(path="messages.1.content.0"), response.text


def test_a_scripted_overload_is_an_error_event_mid_stream_or_a_529():
    prompt = [{"role": "user", "content": "hi"}]
    with _provider("stream-error") as provider:
        streamed = _post(provider, _body(prompt, stream=True))
        whole = _post(provider, _body(prompt))
        remembered = provider.route("anthropic").profile.sent
    data = [json.loads(d) for d in events(streamed.content)]
    assert streamed.status_code == 200 and data[-1] == {"type": "error", "error": {"type": "overloaded_error",
                                                                                    "message": "Overloaded"}}, data
    assert "message_stop" not in [d["type"] for d in data], data
    assert whole.status_code == 529 and whole.json()["error"]["type"] == "overloaded_error", whole.text
    assert remembered == [], "a failed turn is not history, so it must not be remembered as sent"


@pytest.mark.parametrize("mode", [m for m in MODES if m != "whole"])
def test_every_delivery_cut_applies_to_the_messages_stream(mode):
    delivery = Delivery(mode, 5 if mode == "bytes" else 0)
    prompt = [{"role": "user", "content": "Wie ist das Wetter in Zürich?"}]
    with _provider("interleaved-thinking") as whole_provider:
        whole = _post(whole_provider, _body(prompt, stream=True)).content
    with _provider("interleaved-thinking", delivery) as provider:
        cut = _post(provider, _body(prompt, stream=True)).content
        exchange = provider.record.exchanges[-1]
    assert exchange.pieces > 1, f"{mode}: the stream went out in one piece"
    assert cut == delivery.body(whole), f"{mode}: the pieces joined are not the stream"
    assert events(cut) == events(whole), f"{mode}: the cut stream does not carry the same events"


def test_the_blank_text_scenario_streams_blank_blocks_a_replay_must_leave_out():
    """A replay sending the whitespace-only block back is refused with Anthropic's text; one leaving it out passes."""
    with _provider("blank-text") as provider:
        refused = _loop(provider)
    texts = [b.get("text") for b in refused[0].json()["content"] if b["type"] == "text"]
    assert texts == ["\n\n"], refused[0].text
    assert refused[-1].status_code == 400, refused[-1].text
    assert "text content blocks must contain non-whitespace text" in refused[-1].json()["error"]["message"]
    with _provider("blank-text") as provider:
        kept = _loop(provider, edit=lambda content: [b for b in content if b["type"] != "text" or b["text"].strip()])
        violations = provider.record.violations
    assert [a.status_code for a in kept] == [200, 200], [a.text for a in kept]
    assert violations == [], [v.describe() for v in violations]
    final = [b.get("text") for b in kept[-1].json()["content"] if b["type"] == "text"]
    assert final[0] == "" and final[1].strip(), f"the answer opens with an empty text block: {final}"
