"""harness record against a local fake upstream: a vcrpy cassette without credentials, playable again."""

import os
import subprocess
import sys

import yaml

from harness.loopback import LoopbackProvider
from harness.replay import credential_findings, replay
from harness.scripted import ScriptedTool
from harness.reference import adapter as reference

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
