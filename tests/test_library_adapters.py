"""The thin adapters around real client libraries (``harness.libraries``) and the findings they led to.

The libraries are optional extras (``openai``, ``langchain``, ``litellm``). A
missing one fails these tests with the install command; ``HARNESS_SKIP_LIBRARIES=1``
turns that into a skip that names the library.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from harness.adapter import capabilities_of
from library_adapters import require, library_adapter

FINDINGS = Path(__file__).resolve().parents[1] / "docs" / "findings"

# adapter module -> (distribution, import name, capabilities inferred from its methods)
LIBRARIES = {
    "openai_sdk": ("openai", "openai", {"stream", "messages"}),
    "langchain_openai": ("langchain-openai", "langchain_openai", {"stream", "messages"}),
    "litellm_sdk": ("litellm", "litellm", {"stream", "messages", "request"}),
}
# Each reproduction script and the library it reproduces a bug in.
REPRODUCTIONS = {
    "openai-python-tool-call-index-out-of-order.py": "openai",
    "openai-python-tool-call-type-null.py": "openai",
    "openai-python-repeated-call-identity-doubled.py": "openai",
    "openai-python-length-finish-raises.py": "openai",
    "openai-python-sse-byte-order-mark.py": "openai",
    "langchain-core-tool-call-chunks-merged-by-arrival.py": "langchain_openai",
    "litellm-deepseek-default-thinking-reasoning-content.py": "litellm",
    "litellm-gemini-parallel-calls-one-id.py": "litellm",
    "anthropic-python-to-param-empty-text.py": "anthropic",
    "anthropic-python-cut-stream-returned-as-final.py": "anthropic",
    "litellm-anthropic-interleaved-blocks-regrouped.py": "litellm",
    "litellm-redacted-thinking-data-decoded.py": "litellm",
    "langchain-anthropic-stream-input-tokens-zero.py": "langchain_anthropic",
    "litellm-anthropic-stop-reason-lost.py": "litellm",
    "litellm-anthropic-cut-stream-returned-as-final.py": "litellm",
    "openai-python-responses-delta-before-added.py": "openai",
    "google-genai-sse-data-without-space.py": "google.genai",
    "google-genai-chat-streamed-turn-split.py": "google.genai",
    "langchain-openai-responses-deltas-merged-by-arrival.py": "langchain_openai",
    "langchain-openai-responses-cut-stream-returned-as-final.py": "langchain_openai",
    "botocore-eventstream-undefined-header-type-keyerror.py": "botocore",
    "langchain-aws-cut-stream-returned-as-final.py": "langchain_aws",
    "litellm-bedrock-cut-stream-returned-as-final.py": "litellm",
    "litellm-bedrock-redacted-content-encoded-twice.py": "litellm",
    "litellm-bedrock-empty-tool-result-blank-text.py": "litellm",
    "litellm-bedrock-stop-reason-lost.py": "litellm",
}


def _adapter(module: str):
    distribution, import_name, _ = LIBRARIES[module]
    return library_adapter(module, import_name, distribution)


ENVELOPE = {"id": "chatcmpl-9Xq2", "object": "chat.completion.chunk", "created": 1764500000,
            "model": "gpt-4o-mini-2024-07-18", "system_fingerprint": "fp_44709d6fcb"}
USAGE = {"prompt_tokens": 84, "completion_tokens": 41, "total_tokens": 125}


def _chunk(delta: dict, finish_reason: str | None = None) -> dict:
    return {**ENVELOPE, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}


def _body(*events: dict) -> bytes:
    usage = {**ENVELOPE, "choices": [], "usage": USAGE}
    return ("".join(f"data: {json.dumps(e)}\n\n" for e in (*events, usage)) + "data: [DONE]\n\n").encode()


# Two parallel calls, arguments split over several chunks and interleaved, as OpenAI streams them.
TOOL_ROUND = _body(
    _chunk({"role": "assistant", "content": None, "tool_calls": [
        {"index": 0, "id": "call_Wx1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city":'}}]}),
    _chunk({"tool_calls": [{"index": 0, "function": {"arguments": ' "Paris", "unit": "c"}'}}]}),
    _chunk({"tool_calls": [
        {"index": 1, "id": "call_Tz2", "type": "function", "function": {"name": "get_time", "arguments": ""}}]}),
    _chunk({"tool_calls": [{"index": 1, "function": {"arguments": '{"tz": "Europe/'}}]}),
    _chunk({"tool_calls": [{"index": 1, "function": {"arguments": 'Paris"}'}}]}),
    _chunk({}, "tool_calls"),
)
TOOL_ROUND_EXPECTED = {
    "content": "",
    "reasoning": "",
    "tool_calls": [
        {"id": "call_Wx1", "name": "get_weather", "arguments": '{"city": "Paris", "unit": "c"}'},
        {"id": "call_Tz2", "name": "get_time", "arguments": '{"tz": "Europe/Paris"}'},
    ],
    "finish_reason": "tool_calls",
    "usage": USAGE,
}
TEXT_ANSWER = _body(
    _chunk({"role": "assistant", "content": ""}),
    _chunk({"content": "It is 14:05 "}),
    _chunk({"content": "in Paris."}),
    _chunk({}, "stop"),
)
TEXT_ANSWER_EXPECTED = {"content": "It is 14:05 in Paris.", "reasoning": "", "tool_calls": [],
                        "finish_reason": "stop", "usage": USAGE}
STREAMS = {"tool-round": (TOOL_ROUND, TOOL_ROUND_EXPECTED), "text-answer": (TEXT_ANSWER, TEXT_ANSWER_EXPECTED)}


def _check_usage(module: str, got: dict | None) -> None:
    if module == "litellm_sdk":
        # litellm returns its own Usage: the counts sent, plus details it derives itself.
        assert got is not None and {k: got.get(k) for k in USAGE} == USAGE, f"usage={got!r}, expected counts {USAGE}"
        assert set(got) <= {*USAGE, "completion_tokens_details", "prompt_tokens_details"}, f"usage={got!r}"
    else:
        assert got == USAGE, f"usage={got!r}, but the stream sent {USAGE}"


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("module", LIBRARIES)
def test_adapter_parses_a_realistic_stream(module, stream):
    adapter = _adapter(module)
    body, expected = STREAMS[stream]
    got = adapter.parse_stream(body)
    without_usage = {k: v for k, v in got.items() if k != "usage"}
    expected_without_usage = {k: v for k, v in expected.items() if k != "usage"}
    assert without_usage == expected_without_usage, f"{adapter.name} parsed {stream} as {got}"
    _check_usage(module, got.get("usage"))


DEEPSEEK_STREAM = _body(
    _chunk({"role": "assistant", "content": None, "reasoning_content": ""}),
    _chunk({"content": None, "reasoning_content": "They want the time, "}),
    _chunk({"content": None, "reasoning_content": "not the weather."}),
    _chunk({"content": "14:05."}),
    _chunk({}, "stop"),
)
# langchain-openai's ChatOpenAI documents that it does not read reasoning_content.
DEEPSEEK_REASONING = {"openai_sdk": "They want the time, not the weather.", "langchain_openai": "",
                      "litellm_sdk": "They want the time, not the weather."}


@pytest.mark.parametrize("module", LIBRARIES)
def test_reasoning_content_deltas(module):
    got = _adapter(module).parse_stream(DEEPSEEK_STREAM)
    assert (got["content"], got["reasoning"], got["finish_reason"]) == ("14:05.", DEEPSEEK_REASONING[module], "stop")


TOOL_MESSAGE = {"role": "tool", "content": "14:05", "tool_call_id": "call_Tz2", "reasoning": None, "tool_calls": []}
ASSISTANT_CALLS = {"role": "assistant", "content": None, "reasoning": None, "tool_call_id": None,
                   "tool_calls": [{"id": "call_Tz2", "name": "get_time", "arguments": '{"tz":"Europe/Paris"}'}]}


@pytest.mark.parametrize("module", LIBRARIES)
def test_adapter_serializes_tool_pairing_fields(module):
    adapter = _adapter(module)
    assert adapter.serialize_message(TOOL_MESSAGE) == {"role": "tool", "tool_call_id": "call_Tz2", "content": "14:05"}
    wire = adapter.serialize_message(ASSISTANT_CALLS)
    assert wire["role"] == "assistant" and wire.get("content") is None, wire
    (call,) = wire["tool_calls"]
    assert (call["id"], call["type"], call["function"]["name"]) == ("call_Tz2", "function", "get_time"), wire
    assert json.loads(call["function"]["arguments"]) == {"tz": "Europe/Paris"}, wire


@pytest.mark.parametrize("module", LIBRARIES)
def test_capabilities_are_inferred_from_the_methods(module):
    adapter = _adapter(module)
    assert not hasattr(adapter, "capabilities")
    assert capabilities_of(adapter) == LIBRARIES[module][2]
    distribution = LIBRARIES[module][0]
    assert adapter.name.startswith(f"{'openai-python' if distribution == 'openai' else distribution} ")


def test_litellm_transform_goes_through_litellms_deepseek_provider():
    adapter = _adapter("litellm_sdk")
    body = {"model": "deepseek-chat", "messages": [{"role": "user", "content": "Hi"}], "stream": True}
    before = json.dumps(body)
    off = adapter.transform_request(body, {"base_url": "https://api.deepseek.com", "effort": "off"})
    high = adapter.transform_request(body, {"base_url": "https://api.deepseek.com", "effort": "high"})
    generic = adapter.transform_request(body, {"base_url": "https://api.openai.com/v1", "effort": "high"})
    assert json.dumps(body) == before
    assert off.get("thinking") == {"type": "disabled"} and "reasoning_effort" not in off, off
    assert high.get("thinking") == {"type": "enabled"} and high.get("reasoning_effort") == "high", high
    assert "thinking" not in generic and generic.get("reasoning_effort") == "high", generic


def test_harness_does_not_import_the_library_adapters():
    code = (
        "import sys, harness, harness.plugin, harness.cli, harness.cli.check;"
        "print([m for m in sys.modules if m.startswith('harness.libraries')"
        " or m.split('.')[0] in ('openai', 'litellm', 'langchain_openai', 'anthropic', 'langchain_anthropic', 'google')])"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]", run.stdout


@pytest.mark.parametrize("script", REPRODUCTIONS)
def test_finding_reproduces_today(script, tmp_path):
    """Each finding's standalone reproduction still prints BUG; when one prints ok, the library fixed it."""
    library = REPRODUCTIONS[script]
    require(library, library)
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    run = subprocess.run([sys.executable, str(FINDINGS / script)], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path, env=env)
    lines = run.stdout.strip().splitlines()
    assert lines and lines[-1] == "BUG" and run.returncode == 1, (
        f"{script} exited {run.returncode} with:\n{run.stdout}\n{run.stderr}\n"
        "if it prints ok, the library fixed the bug: update docs/findings and this test"
    )


@pytest.mark.parametrize("script", sorted(p.name for p in FINDINGS.glob("*.mjs")))
def test_node_finding_reproduces_today(script):
    """The same for the Vercel AI SDK's findings: each Node reproduction, run from the repository, prints BUG."""
    run = subprocess.run(["node", str(FINDINGS / script)], capture_output=True, text=True, timeout=300,
                         cwd=FINDINGS.parent.parent)
    lines = run.stdout.strip().splitlines()
    assert lines and lines[-1] == "BUG" and run.returncode == 1, (
        f"{script} exited {run.returncode} with:\n{run.stdout}\n{run.stderr}\n"
        "if it prints ok, the library fixed the bug: update docs/findings and this test"
    )


def test_every_reproduction_is_listed():
    # A gateway's own findings (gateways.toml, not a library's too) are run by tests/test_conform_gateway.py.
    gateways = {f"{f['slug']}.py" for f in tomllib.loads((FINDINGS / "gateways.toml").read_text())["finding"]}
    scripts = {p.name for p in FINDINGS.glob("*.py")} - (gateways - set(REPRODUCTIONS))
    assert scripts == set(REPRODUCTIONS), scripts ^ set(REPRODUCTIONS)
    readme = (FINDINGS / "README.md").read_text()
    assert all(name in readme for name in REPRODUCTIONS), readme
