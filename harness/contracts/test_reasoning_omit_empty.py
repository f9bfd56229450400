"""Contract: no reasoning means no ``reasoning_content`` key; a tool-calls message without text says nothing.

Incident: the same DeepSeek incident (incident `deepseek-reasoning-400`) pinned both halves of the
field's shape. An adapter that always writes the key sends a meaningless field
on every message and blurs "did not think" with "thought nothing"; an adapter
that writes ``content: ""`` beside ``tool_calls`` is rejected by gateways
that forbid empty text blocks (Bedrock-backed ones answer "text content
blocks must be non-empty").

Rule: reasoning ``None`` or ``""`` produces no ``reasoning_content`` key. An
assistant message with ``tool_calls`` and no text carries no text: its
``content`` is null, absent, ``""`` or text parts joining to ``""`` (what the
format accepts), and its
calls' ``arguments`` are JSON text of the value sent. The robust form:
``content`` is present and null.

Level: per test. ``test_no_reasoning_key_without_reasoning``: provider
(``reasoning_content`` is DeepSeek's extension; its absence is that field's
shape). ``test_tool_calls_only_message_has_no_text``: wire (OpenAI returns
``null`` and accepts ``null``, an absent key or ``""``).
``test_tool_calls_only_message_has_null_content``: robust (Bedrock-backed
gateways reject ``""``; ``null`` is what OpenAI itself sends back).

Production fingerprint: ``"reasoning_content": ""`` or ``null`` on every
plain message; 400s from strict gateways on every tool round.
"""

import pytest

from harness.clip import clip_json, shown
from harness.testing import content_text, same_arguments
from harness.under_test.invoke import valid

ABSENT = "<absent>"
CALL = {"id": "call_weather", "name": "get_weather", "arguments": '{"city":"Paris"}'}


@pytest.mark.provider
@pytest.mark.parametrize("tool_calls", [[], [CALL]], ids=["text", "tool-calls"])
@pytest.mark.parametrize("reasoning", [None, ""], ids=["none", "empty"])
def test_no_reasoning_key_without_reasoning(messages, reasoning, tool_calls):
    messages = valid(messages)
    content = None if tool_calls else "Plain answer."
    message = {"role": "assistant", "content": content, "reasoning": reasoning, "tool_calls": tool_calls}
    wire = messages.serialize_message(message)
    assert "reasoning_content" not in wire, (
        f"reasoning_content={shown(wire['reasoning_content'])} present, but should be absent "
        f"when reasoning is {reasoning!r} (input {message!r})"
    )


def _tool_calls_only(messages, content):
    message = {"role": "assistant", "content": content, "reasoning": None, "tool_calls": [CALL]}
    return message, messages.serialize_message(message)


@pytest.mark.wire
@pytest.mark.parametrize("content", [None, ""], ids=["none", "empty"])
def test_tool_calls_only_message_has_no_text(messages, content):
    messages = valid(messages)
    message, wire = _tool_calls_only(messages, content)
    got = wire.get("content", ABSENT)
    assert got in (None, ABSENT) or content_text(got) == "", (
        f"content={shown(got)}, but an assistant message with tool_calls and no text should have content null, "
        f"absent or '' (input {message!r})"
    )
    calls = wire.get("tool_calls") or [{}]
    function = calls[0].get("function") or {}
    assert len(calls) == 1 and same_arguments(function.get("arguments"), CALL["arguments"]), (
        f"tool_calls={clip_json(calls)}, but should hold one call whose function.arguments is JSON text of "
        f"{CALL['arguments']} (input {message!r})"
    )


@pytest.mark.robust
@pytest.mark.parametrize("content", [None, ""], ids=["none", "empty"])
def test_tool_calls_only_message_has_null_content(messages, content):
    messages = valid(messages)
    message, wire = _tool_calls_only(messages, content)
    got = wire.get("content", ABSENT)
    assert got is None, (
        f"content={shown(got)}, but should be present and null on an assistant message with tool_calls and no text: "
        f"Bedrock-backed gateways reject '' (input {message!r})"
    )
