"""The transport capability: found by its method, replayed from cassettes, not applicable when absent."""

import os
import subprocess
import sys
from pathlib import Path

from harness.adapter import load_adapter
from harness.reference import adapter as reference
from harness.testing.cassettes import replay
from harness.testing.scripted import ScriptedTool

HERE = Path(__file__).parent


def test_capabilities_are_inferred_from_methods():
    assert load_adapter("sample_adapters:codec_only").capabilities == {"stream", "messages", "request"}
    assert "transport" in load_adapter("harness.reference:adapter").capabilities


def test_check_reports_transport_contracts_not_applicable_for_a_codec_only_adapter():
    run = subprocess.run(
        [sys.executable, "-m", "harness", "check", "--hypothesis-profile", "ci", "--adapter",
         "sample_adapters:codec_only"],
        capture_output=True, text=True, timeout=600,
        env={**{k: v for k, v in os.environ.items() if k != "HARNESS_ADAPTER"}, "PYTHONPATH": str(HERE)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    modules = ("test_reasoning_round_trip.py::", "test_transport_streams.py::")
    transport = [line for line in lines if any(module in line for module in modules)]
    assert len(transport) >= 6, run.stdout
    assert all(line.strip().startswith("NOT APPLICABLE") for line in transport), "\n".join(transport)
    codec = [line for line in lines if "test_thinking_switch.py::" in line]
    assert codec and all(line.strip().startswith("PASSED") for line in codec), "\n".join(codec)


def test_the_reference_runs_a_turn_over_http_from_a_cassette():
    tools = [ScriptedTool("get_weather")]
    with replay("gateway_index_zero") as played:
        result = reference.run_http_turn(played.base_url, "Oslo or Lisbon?", tools, {"model": "qwen3-32b"})
    assert [run.arguments for run in tools[0].runs] == ['{"city":"Oslo"}', '{"city":"Lisbon"}']
    assert [body["model"] for body in played.sent_bodies()] == ["qwen3-32b", "qwen3-32b"]
    assert result["events"][-1]["response"] == "Lisbon is warmer than Oslo today."
