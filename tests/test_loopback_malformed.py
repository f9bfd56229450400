"""Every route is as strict as its provider about a body that is not a request at all.

A body that is not JSON, not a JSON object, or not the format's shape gets
the provider's own 400 and error body, is recorded as a violation, and fails
the probe of an agent that sends it: in every format of harness.adapter.FORMATS.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import httpx
import pytest

from harness import exit_codes
from harness.adapter import FORMATS
from harness.loopback.server import LoopbackProvider

OPENAI_NOT_JSON = "We could not parse the JSON body of your request."


@dataclass(frozen=True)
class Client:
    """How a client of the format reaches its route, and how its provider words each fault."""

    path: str  # after the URL its clients are given
    headers: dict
    shape_rule: str
    answers: dict  # fault -> a check of the error body


def _openai(text):
    return lambda body: body["error"]["type"] == "invalid_request_error" and body["error"]["message"].startswith(text)


def _anthropic(text):
    return lambda body: (body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
                         and body["error"]["message"].startswith(text))


def _gemini(text):
    return lambda body: (body["error"]["code"] == 400 and body["error"]["status"] == "INVALID_ARGUMENT"
                         and text in body["error"]["message"])


def _bedrock(text):
    return lambda body: body == {"message": text}


CLIENTS = {
    "chat": Client("/chat/completions", {}, "messages-missing", {
        "syntax": _openai(OPENAI_NOT_JSON), "not-object": _openai(OPENAI_NOT_JSON),
        "shape": _openai("Missing required parameter: 'messages'.")}),
    "anthropic": Client("/v1/messages", {"x-api-key": "k"}, "messages-missing", {
        "syntax": _anthropic("The request body is not valid JSON: "),
        "not-object": _anthropic("Input should be a valid dictionary"), "shape": _anthropic("messages: Field required")}),
    "openai-responses": Client("/responses", {"Authorization": "Bearer k"}, "input-missing", {
        "syntax": _openai(OPENAI_NOT_JSON), "not-object": _openai(OPENAI_NOT_JSON),
        "shape": _openai("Missing required parameter: 'input'.")}),
    "gemini": Client("/v1beta/models/m:generateContent", {"x-goog-api-key": "k"}, "contents-missing", {
        "syntax": _gemini("Invalid JSON payload received."), "not-object": _gemini("Root element must be a message"),
        "shape": _gemini("contents is not specified")}),
    "bedrock": Client("/model/m/converse", {"Authorization": "Bearer k"}, "messages-missing", {
        "syntax": _bedrock("Unable to parse request body as JSON."),
        "not-object": _bedrock("Unable to parse request body as JSON."),
        "shape": _bedrock("1 validation error detected: Value null at 'messages' failed to satisfy constraint: "
                          "Member must not be null")}),
}
BODIES = {  # each malformed body and its fault
    "not-json": (b"{not json", "syntax"),
    "empty": (b"", "syntax"),
    "array": (b"[1,2]", "not-object"),
    "null": (b"null", "not-object"),
    "wrong-shape": (b'{"model": "m", "stream": true}', "shape"),
}


def test_every_format_has_a_client():
    assert sorted(CLIENTS) == sorted(FORMATS), "a format without its client here is a format this file does not test"


@pytest.mark.parametrize("body", list(BODIES))
@pytest.mark.parametrize("name", list(FORMATS))
def test_a_malformed_body_gets_the_providers_400_and_a_violation(name, body):
    client, (raw, fault) = CLIENTS[name], BODIES[body]
    with LoopbackProvider() as provider:
        response = httpx.post(provider.route_url(name) + client.path, content=raw, timeout=10,
                              headers={"Content-Type": "application/json", **client.headers})
        violations = provider.record.violations
    assert response.status_code == 400, f"{name} answered {raw!r} with {response.status_code}: {response.text}"
    assert client.answers[fault](response.json()), f"{name} answered {raw!r} with {response.text}"
    rule = client.shape_rule if fault == "shape" else "body-not-json"
    assert [(v.rule, v.status, v.error) for v in violations] == [(rule, 400, response.json())], \
        [v.describe() for v in violations]


AGENT = """
    import json, sys, urllib.error, urllib.request

    # A broken agent: it sends the same malformed body each turn, ignores the answer, and exits 0.
    base_url, config = sys.argv[1], json.load(open(sys.argv[2]))
    request = urllib.request.Request(base_url + config["path"], data=config["body"].encode("latin-1"), method="POST",
                                     headers={"Content-Type": "application/json", **config["headers"]})
    try:
        urllib.request.urlopen(request, timeout=30).read()
    except urllib.error.HTTPError as answer:
        answer.read()
"""


def _failed(report) -> set[str]:
    return {case.get("name") for case in ET.parse(report).getroot().iter("testcase")
            if case.find("failure") is not None}


@pytest.mark.parametrize("body", ["not-json", "wrong-shape"])
@pytest.mark.parametrize("name", list(FORMATS))
def test_the_probe_fails_an_agent_that_sends_a_malformed_body(tmp_path, name, body):
    client, (raw, fault) = CLIENTS[name], BODIES[body]
    agent, config, report = tmp_path / "agent.py", tmp_path / "config.json", tmp_path / "junit.xml"
    agent.write_text(textwrap.dedent(AGENT), encoding="utf-8")
    config.write_text(json.dumps({"path": client.path, "headers": client.headers, "body": raw.decode("latin-1")}),
                      encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "harness", "probe", "--format", name, "--junitxml", str(report),
                          "--agent-cmd", f"{sys.executable} {agent} {{base_url}} {config}"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == exit_codes.CONTRACTS_FAILED, run.stdout[-3000:] + run.stderr[-2000:]
    rule = client.shape_rule if fault == "shape" else "body-not-json"
    assert any(rule in case for case in _failed(report)), (rule, sorted(_failed(report)))
