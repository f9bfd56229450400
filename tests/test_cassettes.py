"""The bundled cassettes: no credentials, valid vcrpy YAML, streams the reference parser reads."""

import json
import subprocess
import sys

import pytest
import yaml

from harness.loopback.cassette import CASSETTES
from harness.loopback.credentials import credential_findings
from harness.reference.stream import parse_stream
from harness.testing.cassettes import replay

BUNDLED = sorted(CASSETTES.glob("*.yaml"))

CLEAN = """\
interactions:
- request:
    body: '{"model": "m", "messages": []}'
    headers:
      Content-Type:
      - application/json
{extra}    method: POST
    uri: https://api.example.com/v1/chat/completions
  response:
    body:
      string: "data: [DONE]\\n\\n"
    headers:
      Content-Type:
      - text/event-stream
    status:
      code: 200
      message: OK
version: 1
"""


def _cassette(tmp_path, extra: str = ""):
    path = tmp_path / "recorded.yaml"
    path.write_text(CLEAN.replace("{extra}", extra), encoding="utf-8")
    return path


def test_the_bundled_cassettes_are_the_documented_three():
    assert {p.stem for p in BUNDLED} == {"deepseek_thinking_tools", "openai_parallel_tool_calls", "gateway_index_zero"}
    assert (CASSETTES / "README.md").is_file()


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_no_bundled_cassette_holds_a_credential(path):
    assert credential_findings(path) == []


def test_a_clean_temporary_cassette_passes_the_scan(tmp_path):
    assert credential_findings(_cassette(tmp_path)) == []


@pytest.mark.parametrize(
    "extra, what",
    [
        ("      Authorization:\n      - Bearer sk-live-0123456789abcdef0123\n", "header 'Authorization'"),
        ("      authorization:\n      - REDACTED\n", "header 'authorization'"),
        ("      X-Api-Key:\n      - 0123456789\n", "header 'X-Api-Key'"),
        ("      X-Trace:\n      - Bearer abcdefghijklmnop\n", "bearer token or API key"),
    ],
    ids=["bearer", "any-value", "api-key", "token-in-other-header"],
)
def test_the_scan_fails_on_a_cassette_holding_a_credential(tmp_path, extra, what):
    findings = credential_findings(_cassette(tmp_path, extra))
    assert findings and any(what in f for f in findings), findings


def test_the_scan_fails_on_a_key_in_the_query(tmp_path):
    path = _cassette(tmp_path)
    path.write_text(path.read_text().replace("chat/completions", "chat/completions?key=abc"), encoding="utf-8")
    assert any("query parameter 'key'" in f for f in credential_findings(path))


def test_the_scan_command_exits_nonzero_on_a_credential(tmp_path):
    leaky = _cassette(tmp_path, "      Authorization:\n      - Bearer sk-live-0123456789abcdef0123\n")
    run = subprocess.run([sys.executable, "-m", "harness.loopback.credentials", str(leaky)], capture_output=True, text=True)
    assert run.returncode == 1 and "Authorization" in run.stdout, run.stdout + run.stderr
    run = subprocess.run([sys.executable, "-m", "harness.loopback.credentials", *map(str, BUNDLED)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_every_recorded_stream_parses_and_every_request_is_json(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["version"] == 1 and len(data["interactions"]) >= 2
    for interaction in data["interactions"]:
        assert interaction["request"]["uri"].endswith("/chat/completions")
        assert json.loads(interaction["request"]["body"])["stream"] is True
        parsed = parse_stream(interaction["response"]["body"]["string"].encode("utf-8"))
        assert parsed["finish_reason"] in ("tool_calls", "stop")


def test_the_player_records_what_was_sent_and_refuses_the_network():
    import httpx
    import vcr.errors

    with replay("gateway_index_zero") as played:
        with httpx.Client() as client:
            client.post(f"{played.base_url}/chat/completions", json={"probe": 1}).read()
            with pytest.raises(vcr.errors.CannotOverwriteExistingCassetteException):
                client.post("https://elsewhere.example.org/v1/chat/completions", json={})
    assert played.base_url == "https://gateway.example.com/v1"
    assert played.sent_bodies() == [{"probe": 1}] and played.unplayed() == 1


@pytest.mark.parametrize("coding, offer, expected", [
    ("gzip", "gzip, deflate", "gzip"),
    ("br", "br", "br"),
    ("br", "gzip, deflate", "gzip"),  # br not offered: the best offered coding instead
    ("deflate", "identity", None),
    ("identity", "gzip, deflate, br", None),
])
def test_the_player_compresses_a_stream_only_in_a_coding_the_request_offers(coding, offer, expected):
    import httpx

    recorded = yaml.safe_load((CASSETTES / "gateway_index_zero.yaml").read_text(encoding="utf-8"))
    first = recorded["interactions"][0]["response"]["body"]["string"].encode("utf-8")
    with replay("gateway_index_zero", coding=coding) as played, httpx.Client() as client:
        response = client.post(f"{played.base_url}/chat/completions", json={}, headers={"Accept-Encoding": offer})
    assert response.headers.get("Content-Encoding") == expected and response.content == first
