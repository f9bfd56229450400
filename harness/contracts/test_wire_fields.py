"""Contract: the fields that tie a conversation together survive serialization and the provider transform.

Incident: incident `batch-path-pairing`: the provider refuses the whole conversation when a tool
message cannot be paired with its call; a call's ``type`` and a tool
message's ``tool_call_id`` are what pairs them on the wire. incident `deepseek-thinking-imbalance`: the
provider transform rewrites the outgoing body (reasoning backfill, thinking
switch); when it rewrites the caller's own messages in place, the stored
history changes behind the kernel's back.

Rule: a serialized tool message keeps its ``tool_call_id``; each serialized
tool call is ``{"id", "type": "function", "function": {"name", "arguments"}}``
with ``arguments`` JSON text of the value sent (a client may re-serialize
it); ``transform_request`` returns a new body and leaves the one it was given
exactly as it was, for every provider; a generic provider asked for effort
``off`` gets no ``reasoning_effort``, or the format's own word for it,
``"none"``.

Level: wire (the fields the format requires to pair calls with results, and
the format's values of ``reasoning_effort``; ``off`` is not one of them).

Production fingerprint: HTTP 400 "tool_call_id is required" or "Missing
required parameter: 'messages[1].tool_calls[0].type'"; reasoning or an empty
``reasoning_content`` appearing in stored history nobody wrote there; HTTP 400
"invalid reasoning_effort 'off'".
"""

import copy
import json

import pytest

from harness.request_examples import DEEPSEEK_URL, GENERIC_URLS
from harness.wire_rules import same_arguments

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
    assert wire.get("tool_call_id") == "call_7", (
        f"tool_call_id={wire.get('tool_call_id', '<absent>')!r}, but should be 'call_7': serialized {message} as {wire}"
    )


def test_tool_calls_are_typed_functions(messages):
    message = HISTORY[1]
    calls = messages.serialize_message(message).get("tool_calls") or []
    shapes = [(c.get("id"), c.get("type"), sorted(c.get("function") or {}), (c.get("function") or {}).get("name"))
              for c in calls]
    expected = [("call_7", "function", ["arguments", "name"], "lookup")]
    arguments = [(c.get("function") or {}).get("arguments") for c in calls]
    assert shapes == expected and same_arguments(arguments[0], CALL["arguments"]), (
        f"serialized tool_calls={json.dumps(calls)}, but should be [{{'id': 'call_7', 'type': 'function', "
        f"'function': {{'name': 'lookup', 'arguments': JSON text of {CALL['arguments']}}}}}] for input {message}"
    )


@pytest.mark.parametrize("base_url", [DEEPSEEK_URL, *GENERIC_URLS])
def test_transform_leaves_the_callers_body_as_it_was(transform, base_url):
    body = {"model": "m", "stream": True, "tools": [{"type": "function", "function": {"name": "lookup"}}],
            "messages": WIRE_HISTORY}
    before = copy.deepcopy(body)
    transform.transform_request(body, {"base_url": base_url, "effort": "high"})
    assert body == before, (
        f"transform_request for {base_url} changed the caller's body from {before} to {body}, but should return a "
        "new body and leave the caller's as it was"
    )


@pytest.mark.parametrize("base_url", GENERIC_URLS)
def test_generic_provider_gets_no_effort_when_off(transform, base_url):
    body = {"model": "m", "messages": HISTORY[:1]}
    sent = transform.transform_request(body, {"base_url": base_url, "effort": "off"})
    got = sent.get("reasoning_effort", "<absent>")
    assert got in ("<absent>", "none"), (
        f"effort 'off' for {base_url} sent reasoning_effort={got!r}, but should send none, or 'none' "
        f"(the format has no 'off'); body {body}"
    )
