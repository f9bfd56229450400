"""Contract: what the HTTP client sends on every round: a JSON POST, with the configured credential or none.

Incident: incident `deepseek-reasoning-400`: the kernel's follow-up rounds
must reach the provider it configured, asking for what the recorded streams
(provider facts) answer: requests that ask for a stream, name a model and
offer the tools, on every round, as JSON the provider reads as JSON, with
the credential the provider checks. (What an HTTP error does to the turn is
``test_transport_bodies.py``'s rule, for every status and body kind.)

Sent requests are read from the player: vcrpy's in-process, the loopback
provider's record when the adapter runs over the bridge.

Rule: every request the client sends has ``"stream": true``, the
configured ``model`` (without one configured, the adapter's own: never null),
the tools of the turn and the user's question; a base
URL written with a trailing slash reaches the same endpoint. Every request is
a ``POST`` with ``Content-Type: application/json`` (parameters such as
``charset`` allowed) and a body that is a JSON object. An
``Authorization`` header, wherever the adapter takes its key from, is
``Bearer`` and a real token, never a placeholder a missing key turns into
(``Bearer None``, ``Bearer null``, ``Bearer undefined``, an empty token).
The harness's own convention (policy): the key is read from
``HARNESS_API_KEY`` (where ``harness record`` puts it), so with a key
configured every request carries exactly ``Authorization: Bearer KEY``,
and with none no request carries an ``Authorization`` header (over the bridge the key is the one the bridge process
inherited at its start, so the half the session's environment does not
match is not applicable). (The ``Accept`` header is not part of the
rule: ``stream`` is what asks for a stream, and OpenAI's own Python client
sends ``Accept: application/json`` on streamed requests.)

Level: wire (the format's request body, endpoint and bearer authentication);
policy for the key's variable: an adapter may read its key from a variable
of its own (``OPENAI_API_KEY``), which the format does not decide.

Production fingerprint: the provider answers a plain JSON completion the SSE
parser reads as nothing; or the follow-up round, sent
without tools, ends the agent's tool use after one round; HTTP 415 or 422
"Unsupported Media Type" from a gateway that reads only JSON it is told is
JSON; HTTP 401 "Incorrect API key provided: None" from every provider, or
a real key sent to a host that was configured without one.
"""

import os

import pytest

from harness.clip import clip, shown
from harness.testing import ScriptedTool, content_text, play
from harness.testing.cassettes import over_bridge
from harness.under_test.guard import NotApplicable
from harness.under_test.invoke import valid

CASSETTE = "openai_parallel_tool_calls"
QUESTION = "Weather in Paris and Tokyo, and the time in Tokyo?"
OPTIONS = {"model": "o4-mini", "effort": "high"}
KEY_ENV = "HARNESS_API_KEY"  # the harness's credential variable (``harness record --api-key-env`` fills it)
KEY = "sk-contract-0123456789"


def _sent_requests(transport, trailing: str = "", options: dict = OPTIONS):
    tools = [ScriptedTool("get_time"), ScriptedTool("get_weather")]
    with play(CASSETTE, transport) as played:
        valid(transport).run_http_turn(played.base_url + trailing, QUESTION, tools, played.options(options))
    return played, {tool.name for tool in tools}


@pytest.mark.wire
def test_every_request_asks_for_a_stream_of_the_configured_model_with_the_tools(transport):
    played, tool_names = _sent_requests(transport)
    assert len(played.sent) >= 2, f"the client sent {len(played.sent)} request(s), but {CASSETTE} plays 2 rounds"
    for n, body in enumerate(played.sent_bodies(), 1):
        offered = {t.get("function", {}).get("name") for t in body.get("tools") or ()}
        shape = {key: body.get(key, "<absent>") for key in ("stream", "model")}
        assert body.get("stream") is True and body.get("model") == OPTIONS["model"], (
            f"request #{n} sent {shown(shape)}, but should ask for a stream of the configured model "
            f"{OPTIONS['model']!r}"
        )
        assert offered == tool_names, (
            f"request #{n} offered the tools {shown(sorted(offered))}, expected {sorted(tool_names)}"
        )
        users = [content_text(m.get("content")) for m in body.get("messages") or () if m.get("role") == "user"]
        assert users == [QUESTION], f"request #{n} sent the user messages {shown(users)}, expected [{QUESTION!r}]"


@pytest.mark.wire
def test_a_base_url_ending_in_a_slash_reaches_the_same_endpoint(transport):
    played, _ = _sent_requests(transport, trailing="/")
    uris = [request.uri for request in played.sent]
    expected = played.base_url + "/chat/completions"
    assert uris and set(uris) == {expected}, (
        f"with base URL {shown(played.base_url + '/')} the client sent to {shown(uris)}, but should send to "
        f"{expected!r}"
    )


@pytest.mark.wire
def test_without_a_model_option_every_request_still_names_a_model(transport):
    options = {key: value for key, value in OPTIONS.items() if key != "model"}
    played, _ = _sent_requests(transport, options=options)
    models = [body.get("model", "<absent>") for body in played.sent_bodies()]
    assert models and all(isinstance(model, str) and model for model in models), (
        f"with options {shown(options)} (no model) the requests named the models {shown(models)}, but every request "
        "must name one (the format requires it): the adapter's own default, never null or empty"
    )


@pytest.mark.wire
def test_every_request_is_a_json_post(transport):
    played, _ = _sent_requests(transport)
    assert played.sent, f"the client sent no request, but {CASSETTE} plays 2 rounds"
    for n, (request, body) in enumerate(zip(played.sent, played.sent_bodies()), 1):
        media = (request.headers.get("Content-Type") or "<absent>").split(";")[0].strip().lower()
        assert request.method.upper() == "POST" and media == "application/json", (
            f"request #{n} to {request.uri} was {request.method} with Content-Type "
            f"{request.headers.get('Content-Type', '<absent>')!r}, but should be a POST of application/json"
        )
        assert isinstance(body, dict), f"request #{n} sent the JSON {clip(str(body))}, but should send a JSON object"


def _authorizations(transport, monkeypatch, key: str | None) -> list[str]:
    if over_bridge(transport):
        if os.environ.get(KEY_ENV) != key:  # the bridge read its environment when it started
            raise NotApplicable(f"over the bridge the API key is the one the bridge process inherited; {KEY_ENV} "
                                f"is {'set' if os.environ.get(KEY_ENV) else 'not set'} in this session")
    elif key is None:
        monkeypatch.delenv(KEY_ENV, raising=False)
    else:
        monkeypatch.setenv(KEY_ENV, key)
    played, _ = _sent_requests(transport)
    assert played.sent, f"the client sent no request, but {CASSETTE} plays 2 rounds"
    return [request.headers.get("Authorization", "<absent>") for request in played.sent]


@pytest.mark.policy
def test_a_configured_key_goes_as_its_bearer_token(transport, monkeypatch):
    sent = _authorizations(transport, monkeypatch, KEY)
    assert sent == [f"Bearer {KEY}"] * len(sent), (
        f"with {KEY_ENV}={KEY!r} the requests sent the Authorization headers {shown(sent)}, but each should send "
        f"exactly 'Bearer {KEY}'"
    )


@pytest.mark.policy
def test_without_a_key_no_request_sends_authorization(transport, monkeypatch):
    sent = _authorizations(transport, monkeypatch, None)
    assert sent == ["<absent>"] * len(sent), (
        f"with {KEY_ENV} not set the requests sent the Authorization headers {shown(sent)}, but without a key none "
        "should send one (never 'Bearer None' nor an empty token)"
    )


PLACEHOLDERS = {"", "none", "null", "undefined"}


@pytest.mark.wire
def test_no_request_sends_a_placeholder_token(transport, monkeypatch):
    sent = _authorizations(transport, monkeypatch, None)
    bad = [header for header in sent if header != "<absent>"
           and (not header.startswith("Bearer ") or header.removeprefix("Bearer ").strip().lower() in PLACEHOLDERS)]
    assert not bad, (
        f"with {KEY_ENV} not set the requests sent the Authorization headers {shown(sent)}; a header, if sent, should "
        "be 'Bearer ' and a real token, never a placeholder for a missing key"
    )
