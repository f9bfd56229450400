"""Contract: the fields that tie a conversation together survive serialization and the provider transform.

Incident: seed 003: the provider refuses the whole conversation when a tool
message cannot be paired with its call; a call's ``type`` and a tool
message's ``tool_call_id`` are what pairs them on the wire. Seed 004: the
provider transform rewrites the outgoing body (reasoning backfill, thinking
switch); when it rewrites the caller's own messages in place, the stored
history changes behind the kernel's back.

Rule: a serialized tool message keeps its ``tool_call_id``; each serialized
tool call is ``{"id", "type": "function", "function": {"name", "arguments"}}``;
``transform_request`` returns a new body and leaves the one it was given
exactly as it was, for every provider; a generic provider asked for effort
``off`` gets no ``reasoning_effort``.

Production fingerprint: HTTP 400 "tool_call_id is required" or "Missing
required parameter: 'messages[1].tool_calls[0].type'"; reasoning or an empty
``reasoning_content`` appearing in stored history nobody wrote there; HTTP 400
"invalid reasoning_effort 'off'".
"""

import copy

import pytest

from harness.request_examples import DEEPSEEK_URL, GENERIC_URLS

pytestmark = pytest.mark.wire

CALL = {"id": "call_7", "name": "lookup", "arguments": '{"q":"x"}'}
HISTORY = [
    {"role": "user", "content": "Look x up."},
    {"role": "assistant", "content": None, "reasoning": "Need the lookup tool.", "tool_calls": [CALL]},
    {"role": "tool", "content": "x is 42", "tool_call_id": "call_7"},
    {"role": "assistant", "content": "x is 42.", "reasoning": None},
]
WIRE_HISTORY = [
    HISTORY[0],
    {"role": "assistant", "content": None, "reasoning_content": "Need the lookup tool.",
     "tool_calls": [{"id": "call_7", "type": "function", "function": {"name": "lookup", "arguments": '{"q":"x"}'}}]},
    HISTORY[2],
    {"role": "assistant", "content": "x is 42."},
]


def test_tool_message_keeps_its_call_id(messages):
    message = HISTORY[2]
    wire = messages.serialize_message(message)
    assert wire.get("tool_call_id") == "call_7", f"serialized {message} as {wire}, which lost tool_call_id 'call_7'"


def test_tool_calls_are_typed_functions(messages):
    wire = messages.serialize_message(HISTORY[1])
    expected = [{"id": "call_7", "type": "function", "function": {"name": "lookup", "arguments": '{"q":"x"}'}}]
    assert wire.get("tool_calls") == expected, f"serialized tool_calls={wire.get('tool_calls')}, expected {expected}"


@pytest.mark.parametrize("base_url", [DEEPSEEK_URL, *GENERIC_URLS])
def test_transform_leaves_the_callers_body_as_it_was(transform, base_url):
    body = {"model": "m", "stream": True, "tools": [{"type": "function", "function": {"name": "lookup"}}],
            "messages": WIRE_HISTORY}
    before = copy.deepcopy(body)
    transform.transform_request(body, {"base_url": base_url, "effort": "high"})
    assert body == before, f"transform_request for {base_url} changed the caller's body from {before} to {body}"


@pytest.mark.parametrize("base_url", GENERIC_URLS)
def test_generic_provider_gets_no_effort_when_off(transform, base_url):
    sent = transform.transform_request({"model": "m", "messages": HISTORY[:1]}, {"base_url": base_url, "effort": "off"})
    assert "reasoning_effort" not in sent, (
        f"effort 'off' for {base_url} sent reasoning_effort={sent.get('reasoning_effort')!r}, which should be absent"
    )
