"""harness record against a local fake upstream: a vcrpy cassette without credentials, playable again."""

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import yaml

from harness import exit_codes
from harness.loopback import LoopbackProvider
from harness.loopback.credentials import credential_findings
from harness.reference import adapter as reference
from harness.testing.cassettes import replay
from harness.testing.scripted import ScriptedTool

KEY = "sk-test0123456789abcdefghij"


def test_a_recorded_turn_keeps_no_key_and_plays_back(tmp_path):
    cassette = tmp_path / "recorded.yaml"
    with LoopbackProvider(scenario="interleaved", profile="openai") as upstream:
        run = subprocess.run(
            [sys.executable, "-m", "harness", "record", "--base-url", upstream.base_url, "--model", "gpt-4.1-mini",
             "--output", str(cassette), "--tool", "get_weather", "--tool", "get_time", "--effort", "low"],
            capture_output=True, text=True, timeout=120, env={**os.environ, "HARNESS_API_KEY": KEY},
        )
        sent = upstream.record.exchanges
    assert run.returncode == 0, run.stderr
    assert [e.headers.get("Authorization") for e in sent] == [f"Bearer {KEY}"] * 2, "the key reached the provider"
    text = cassette.read_text(encoding="utf-8")
    assert KEY not in text and "Bearer" not in text and not credential_findings(cassette)
    data = yaml.safe_load(text)
    assert len(data["interactions"]) == 2
    # The same file plays in-process (vcrpy) and from the loopback provider.
    tools = [ScriptedTool("get_time"), ScriptedTool("get_weather")]
    with replay(cassette) as played:
        reference.run_http_turn(played.base_url, "again", tools, {"model": "gpt-4.1-mini"})
    assert not played.unplayed() and sum(len(t.runs) for t in tools) == 3
    with LoopbackProvider(cassette=cassette) as provider:
        reference.run_http_turn(provider.base_url, "again", [ScriptedTool("get_time"), ScriptedTool("get_weather")],
                                {"model": "gpt-4.1-mini"})
        assert [e.status for e in provider.record.exchanges] == [200, 200]


def test_a_refused_turn_is_reported_and_an_existing_file_is_kept(tmp_path):
    cassette = tmp_path / "refused.yaml"
    with LoopbackProvider(cassette="openai_parallel_tool_calls") as upstream:
        # A base URL under which the cassette has nothing: the fake upstream answers 404.
        run = subprocess.run([sys.executable, "-m", "harness", "record", "--base-url", upstream.origin + "/nope",
                              "--model", "m", "--output", str(cassette)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "HTTP 404" in run.stderr
    again = subprocess.run([sys.executable, "-m", "harness", "record", "--base-url", "http://127.0.0.1:9", "--model",
                            "m", "--output", str(cassette)], capture_output=True, text=True, timeout=120)
    assert again.returncode == 2 and "exists" in again.stderr


class _EchoingProvider(BaseHTTPRequestHandler):
    """A careless provider: its error body quotes the Authorization header it was sent. Status from the path."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        status = int(self.path.split("/")[1])
        body = json.dumps({"error": {"message": f"Incorrect API key provided: {self.headers.get('Authorization')}",
                                     "type": "invalid_request_error"}}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def echoing_provider():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoingProvider)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _record(base_url, output, key=KEY):
    return subprocess.run([sys.executable, "-m", "harness", "record", "--base-url", base_url, "--model", "m",
                           "--output", str(output)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HARNESS_API_KEY": key})


@pytest.mark.parametrize("status", [401, 500])
@pytest.mark.parametrize("key", [KEY, "plain-key-without-a-known-shape"])
def test_a_key_the_provider_echoes_reaches_neither_stderr_nor_the_cassette(tmp_path, echoing_provider, status, key):
    cassette = tmp_path / "echoed.yaml"
    run = _record(f"{echoing_provider}/{status}/v1", cassette, key)
    assert f"HTTP {status}" in run.stderr, run.stderr
    assert key not in run.stdout + run.stderr, f"the key was printed: {run.stderr}"
    assert "Incorrect API key provided" in run.stderr, "the provider's message is still shown, without the key"
    if cassette.exists():
        assert key not in cassette.read_text(encoding="utf-8"), "the echoed key was written to the cassette"
    assert run.returncode == exit_codes.USAGE, (run.returncode, run.stderr)


def test_a_key_in_the_base_url_is_refused_without_being_printed(tmp_path, echoing_provider):
    cassette = tmp_path / "never.yaml"
    run = _record(f"{echoing_provider}/200/v1?api-key={KEY}&api-version=2024-10-21", cassette)
    assert run.returncode == exit_codes.USAGE, (run.returncode, run.stderr)
    assert KEY not in run.stdout + run.stderr, f"the key was printed: {run.stderr}"
    assert "api-key=%5Bredacted%5D" in run.stderr or "api-key=[redacted]" in run.stderr, run.stderr
    assert "takes no query string" in run.stderr and not cassette.exists()
