"""The Vercel AI SDK example (examples/vercel-ai-adapter) over the bridge, on a realistic stream.

The bridge hands the bytes to the SDK's own OpenAI-compatible provider; this
checks the neutral response it maps the SDK's stream parts to. It needs the
example's pinned packages: without ``node_modules`` the test fails and says
how to install them (never a silent skip).
"""

from __future__ import annotations

import json
import shlex

import pytest
import vercel_sdk

from harness.bridge import load_bridge

EXAMPLE = vercel_sdk.EXAMPLE

ENVELOPE = {"id": "chatcmpl-9xq", "object": "chat.completion.chunk", "created": 1767225600, "model": "gpt-4.1-mini"}
USAGE = {
    "prompt_tokens": 82,
    "completion_tokens": 41,
    "total_tokens": 123,
    "prompt_tokens_details": {"cached_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0},
}


def _chunk(delta: dict | None = None, finish_reason: str | None = None, **extra) -> dict:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]
    return {**ENVELOPE, "choices": choices, **extra}


def _call(index: int, arguments: str, call_id: str | None = None, name: str | None = None) -> dict:
    fragment: dict = {"index": index, "function": {"arguments": arguments}}
    if call_id is not None:
        fragment = {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
    return {"tool_calls": [fragment]}


# Two parallel calls, opened one after the other, their argument pieces interleaved.
CHUNKS = [
    _chunk({"role": "assistant", "content": None}),
    _chunk({"content": "Checking both."}),
    _chunk(_call(0, "", "call_weather", "get_weather")),
    _chunk(_call(0, '{"city":')),
    _chunk(_call(1, "", "call_time", "get_time")),
    _chunk(_call(1, '{"tz":"Europe/')),
    _chunk(_call(0, ' "Paris", "unit": "C"}')),
    _chunk(_call(1, 'Paris"}')),
    _chunk({}, "tool_calls"),
    _chunk(None, usage=USAGE),
]
BODY = "".join(f"data: {json.dumps(c)}\n\n" for c in CHUNKS).encode() + b"data: [DONE]\n\n"


@pytest.fixture(scope="module")
def bridge():
    missing = vercel_sdk.missing()
    if missing is not None:
        yield missing
        return
    loaded = load_bridge(f"node {shlex.quote(str(EXAMPLE / 'bridge.js'))}", timeout=60)
    try:
        yield loaded.obj
    finally:
        loaded.obj.close()


def _adapter(bridge):
    """The bridge adapter; without the example's packages the test itself fails (no skip)."""
    if isinstance(bridge, str):
        pytest.fail(bridge, pytrace=False)
    return bridge


def test_realistic_stream_maps_to_the_neutral_response(bridge):
    got = _adapter(bridge).parse_stream(BODY)
    assert got == {
        "content": "Checking both.",
        "reasoning": "",
        "tool_calls": [
            {"id": "call_weather", "name": "get_weather", "arguments": '{"city": "Paris", "unit": "C"}'},
            {"id": "call_time", "name": "get_time", "arguments": '{"tz":"Europe/Paris"}'},
        ],
        "finish_reason": "tool_calls",
        "usage": USAGE,
    }, f"the SDK's stream parts mapped to {got}"


def test_assistant_tool_call_message_is_the_sdks_wire_message(bridge):
    vercel = _adapter(bridge)
    message = {
        "role": "assistant",
        "content": None,
        "reasoning": "Need the weather first.",
        "tool_calls": [{"id": "call_weather", "name": "get_weather", "arguments": '{"city": "Paris"}'}],
        "tool_call_id": None,
    }
    assert vercel.serialize_message(message) == {
        "role": "assistant",
        "content": None,
        "reasoning_content": "Need the weather first.",
        "tool_calls": [
            {"id": "call_weather", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
        ],
    }
    tool = {"role": "tool", "content": "18 C", "reasoning": None, "tool_calls": [], "tool_call_id": "call_weather"}
    assert vercel.serialize_message(tool) == {"role": "tool", "tool_call_id": "call_weather", "content": "18 C"}
