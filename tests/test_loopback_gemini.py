"""The loopback provider's Gemini routes: scenarios, the strict profile's answers, deliveries."""

from __future__ import annotations

import json

import httpx
import pytest

from harness.loopback.delivery import MODES, Delivery
from harness.loopback.gemini_format import GEMINI, SCENARIOS, UNREGISTERED
from harness.loopback.server import LoopbackProvider
from harness.loopback.strict_route import FormatRoute
from harness.reference import gemini_adapter
from harness.reference.sse import StreamError
from harness.rules import gemini_history as rules
from harness.wire.gemini_events import UNAVAILABLE
from harness.wire.sse import events

KEY = {"x-goog-api-key": "loopback-key"}
TOOLS = [{"functionDeclarations": [
    {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                           "required": ["city"]}},
    {"name": "list_cities", "parameters": {"type": "object", "properties": {}}}]}]
MODEL_PATH = "/v1beta/models/gemini-3-pro-preview"
CALLING = [name for name in SCENARIOS if name != "stream-error"]


def _prompt(turn=0):
    return {"role": "user", "parts": [{"text": f"What is the weather in Zürich? (turn {turn + 1})"}]}


def _body(contents):
    return {"contents": contents, "tools": TOOLS, "generationConfig": {"thinkingConfig": {"includeThoughts": True}}}


def _post(provider, contents, method=":generateContent", params=None, headers=KEY):
    return httpx.post(provider.origin + MODEL_PATH + method, params=params, json=_body(contents), headers=headers,
                      timeout=10)


def _stream(provider, contents):
    return _post(provider, contents, ":streamGenerateContent", {"alt": "sse"})


def _provider(scenario, delivery=None):
    return LoopbackProvider(routes=(FormatRoute(GEMINI, scenario),), **({"delivery": delivery} if delivery else {}))


def _whole(response):
    """The model content of a non-streamed answer, as it goes back: verbatim."""
    return response.json()["candidates"][0]["content"]


def _streamed(response):
    """The model content of a streamed answer, decoded and written back by the reference codec."""
    turn = gemini_adapter.parse_stream(response.content)
    return gemini_adapter.serialize_message({"role": "assistant", "blocks": turn["blocks"]})


def _answers(content):
    calls = [p["functionCall"] for p in content["parts"] if "functionCall" in p]
    return {"role": "user", "parts": [{"functionResponse": {"name": c["name"], "response": {"result": "18 °C"}}}
                                      for c in calls]} if calls else None


def _loop(provider, stream=False, edit=lambda content: [content], rounds=6, turns=1):
    """A conversation of ``turns`` prompts, each a tool loop replaying every model content (as ``edit`` writes
    it: a list of contents) with the answers to its calls; every response, in order (up to the first refusal)."""
    contents, answers = [], []
    for turn in range(turns):
        contents.append(_prompt(turn))
        for _ in range(rounds):
            response = _stream(provider, contents) if stream else _post(provider, contents)
            answers.append(response)
            if response.status_code != 200:
                return answers
            content = _streamed(response) if stream else _whole(response)
            results = _answers(content)
            contents += [*edit(content), *([results] if results else [])]
            if results is None:
                break
        else:
            raise AssertionError(f"the tool loop did not end in {rounds} rounds: {[a.text[:300] for a in answers]}")
    return answers


def test_without_an_api_key_the_answer_is_geminis_403():
    with _provider("signed-calls") as provider:
        refused = _post(provider, [_prompt()], headers={})
        by_query = _post(provider, [_prompt()], params={"key": "loopback-key"}, headers={})
    assert refused.status_code == 403, refused.text
    assert refused.json() == {"error": {"code": 403, "message": UNREGISTERED, "status": "PERMISSION_DENIED"}}, \
        refused.text
    assert by_query.status_code == 200, f"a key in the query is a credential too: {by_query.text}"


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
        response = _stream(provider, [_prompt()])
        sent = provider.route("gemini").profile.sent
    assert response.status_code == 200, response.text
    assert len(sent) == 1, f"expected the one turn streamed to be remembered, got {len(sent)}"
    decoded = gemini_adapter.parse_stream(response.content)
    assert decoded["blocks"] == sent[0]["blocks"], (decoded["blocks"], sent[0]["blocks"])
    assert decoded["stop_reason"] == "STOP", decoded


def test_only_the_first_of_parallel_calls_is_signed():
    with _provider("parallel-calls") as provider:
        parts = _whole(_post(provider, [_prompt()]))["parts"]
    calls = [p for p in parts if "functionCall" in p]
    assert len(calls) == 6, parts
    assert "thoughtSignature" in calls[0], calls[0]
    assert [c for c in calls[1:] if "thoughtSignature" in c] == [], calls[1:]


def test_without_alt_sse_the_stream_method_answers_one_json_array():
    with _provider("signed-calls") as sse_provider:
        streamed = [json.loads(d) for d in events(_stream(sse_provider, [_prompt()]).content)]
    with _provider("signed-calls") as provider:
        response = _post(provider, [_prompt()], ":streamGenerateContent")
    assert response.status_code == 200 and response.headers["Content-Type"].startswith("application/json"), \
        response.headers
    assert response.json() == streamed, (response.json(), streamed)


def _unsigned(content):
    return [{**content, "parts": [{k: v for k, v in p.items() if k != "thoughtSignature"} for p in content["parts"]]}]


def _corrupted(content):
    # Still base64 (four more characters), so it decodes and fails verification, not decoding.
    return [{**content, "parts": [{**p, "thoughtSignature": "AAAA" + p["thoughtSignature"]} if "thoughtSignature" in p
                                  else p for p in content["parts"]]}]


def _signed_everywhere(content):
    signature = next(p["thoughtSignature"] for p in content["parts"] if "thoughtSignature" in p)
    return [{**content, "parts": [{**p, "thoughtSignature": signature} if "functionCall" in p else p
                                  for p in content["parts"]]}]


def _split(content):
    return [{**content, "parts": [p]} for p in content["parts"]]


def _empty_text(content):
    return [{**content, "parts": [*content["parts"], {"text": ""}]}]


# scenario, edit, the rules it breaks (the first is answered), the text of the answer (formatted from the request).
BREAKS = {
    "drop-signature": ("signed-calls", _unsigned, [rules.CALL_SIGNED], rules.UNSIGNED_TEXT),
    "edit-signature": ("signed-calls", _corrupted, [rules.SIGNATURES_AS_SENT], rules.CORRUPTED_TEXT),
    "sign-every-call": ("parallel-calls", _signed_everywhere, [rules.SIGNATURES_AS_SENT] * 5, rules.CORRUPTED_TEXT),
    # the thought summary, then each call, in a content of its own: no call content follows a user content, none
    # is answered by the content after it, and every one but the first call's is unsigned.
    "split-parallel": ("parallel-calls", _split, [rules.CALL_TURN_PLACED] * 6 + [rules.RESPONSES_COUNTED] * 6
                       + [rules.CALL_SIGNED] * 5, rules.PLACEMENT_TEXT),
    "empty-text": ("signed-calls", _empty_text, [rules.TEXT_NON_EMPTY], rules.EMPTY_TEXT_TEXT),
}


@pytest.mark.parametrize("name", BREAKS)
def test_each_broken_replay_gets_geminis_400(name):
    scenario, edit, broken, text = BREAKS[name]
    with _provider(scenario) as provider:
        answers = _loop(provider, edit=edit)
        violations = provider.record.violations
        exchange = provider.record.exchanges[-1]
    request, refused = exchange.json, answers[-1]
    assert refused.status_code == 400, f"{name}: expected HTTP 400, got {refused.status_code}: {refused.text}"
    error = refused.json()["error"]
    first = violations[0].message_index
    call = next((p["functionCall"] for p in request["contents"][first].get("parts", []) if "functionCall" in p), {})
    expected = text.format(name=call.get("name"), position=first + 1)
    assert (error["code"], error["status"]) == (400, "INVALID_ARGUMENT"), error
    assert error["message"] == expected, f"{name}: expected {expected!r}, got {error['message']!r}"
    shown = exchange.excerpt(first)
    assert shown.startswith(f"contents[{first}] = "), f"{name}: the excerpt is not the content refused: {shown}"
    assert sorted(v.rule for v in violations) == sorted(broken), [v.describe() for v in violations]
    assert violations[0].rule == broken[0], [v.describe() for v in violations]


def test_too_few_function_responses_are_refused():
    with _provider("parallel-calls") as provider:
        content = _whole(_post(provider, [_prompt()]))
        answers = _answers(content)
        short = {**answers, "parts": answers["parts"][:-1]}
        response = _post(provider, [_prompt(), content, short])
    assert response.status_code == 400, response.text
    assert response.json()["error"]["message"] == rules.COUNT_TEXT, response.text


def test_a_scripted_failure_is_an_error_chunk_mid_stream_or_a_503():
    with _provider("stream-error") as provider:
        streamed = _stream(provider, [_prompt()])
        whole = _post(provider, [_prompt()])
        remembered = provider.route("gemini").profile.sent
    data = [json.loads(d) for d in events(streamed.content)]
    assert streamed.status_code == 200 and data[-1] == {"error": UNAVAILABLE}, data
    assert not any("finishReason" in c for d in data for c in d.get("candidates", [])), data
    with pytest.raises(StreamError, match="error mid-stream"):
        gemini_adapter.parse_stream(streamed.content)
    assert whole.status_code == 503 and whole.json() == {"error": UNAVAILABLE}, whole.text
    assert remembered == [], "a failed turn is not history, so it must not be remembered as sent"


@pytest.mark.parametrize("mode", [m for m in MODES if m != "whole"])
def test_every_delivery_cut_applies_to_the_gemini_stream(mode):
    delivery = Delivery(mode, 5 if mode == "bytes" else 0)
    with _provider("signed-calls") as whole_provider:
        whole = _stream(whole_provider, [_prompt()]).content
    with _provider("signed-calls", delivery) as provider:
        cut = _stream(provider, [_prompt()]).content
        exchange = provider.record.exchanges[-1]
    assert exchange.pieces > 1, f"{mode}: the stream went out in one piece"
    assert cut == delivery.body(whole), f"{mode}: the pieces joined are not the stream"
    assert events(cut) == events(whole), f"{mode}: the cut stream does not carry the same events"


@pytest.mark.parametrize("allowed, called", [(frozenset({"list_cities"}), {"list_cities"}), (frozenset(), set())])
def test_only_the_tools_allowed_are_called(allowed, called):
    with LoopbackProvider(routes=(FormatRoute(GEMINI, "parallel-calls", allowed_tools=allowed),)) as provider:
        parts = _whole(_post(provider, [_prompt()]))["parts"]
    names = {p["functionCall"]["name"] for p in parts if "functionCall" in p}
    assert names == called, f"allowed {sorted(allowed)}: expected calls to {sorted(called)}, got {sorted(names)}"
    answered = any("text" in p and not p.get("thought") for p in parts)
    assert answered or called, f"a round without calls must answer: {parts}"
