"""Contract: no reasoning means no ``reasoning_content`` key, and null content on tool calls.

Incident: the same DeepSeek incident (seed 000) pinned both halves of the
field's shape. An adapter that always writes the key sends a meaningless field
on every message and blurs "did not think" with "thought nothing"; an adapter
that writes ``content: ""`` beside ``tool_calls`` is rejected by gateways
that forbid empty text blocks (Bedrock-backed ones answer "text content
blocks must be non-empty").

Rule: reasoning ``None`` or ``""`` produces no ``reasoning_content`` key; an
assistant message with ``tool_calls`` and no text has ``content: null``.

Production fingerprint: ``"reasoning_content": ""`` or ``null`` on every
plain message; 400s from strict gateways on every tool round.
"""

import pytest

pytestmark = pytest.mark.wire

CALL = {"id": "call_weather", "name": "get_weather", "arguments": '{"city":"Paris"}'}


@pytest.mark.parametrize("tool_calls", [[], [CALL]], ids=["text", "tool-calls"])
@pytest.mark.parametrize("reasoning", [None, ""], ids=["none", "empty"])
def test_no_reasoning_key_without_reasoning(messages, reasoning, tool_calls):
    content = None if tool_calls else "Plain answer."
    message = {"role": "assistant", "content": content, "reasoning": reasoning, "tool_calls": tool_calls}
    wire = messages.serialize_message(message)
    assert "reasoning_content" not in wire, (
        f"reasoning_content={wire['reasoning_content']!r} present, but should be absent "
        f"when reasoning is {reasoning!r} (input {message!r})"
    )


@pytest.mark.parametrize("content", [None, ""], ids=["none", "empty"])
def test_tool_calls_only_message_has_null_content(messages, content):
    message = {"role": "assistant", "content": content, "reasoning": None, "tool_calls": [CALL]}
    wire = messages.serialize_message(message)
    assert "content" in wire and wire["content"] is None, (
        f"content={wire.get('content', '<absent>')!r}, but should be null on an assistant message "
        f"with tool_calls and no text (input content {content!r})"
    )
    function = (wire.get("tool_calls") or [{}])[0].get("function", {})
    assert function.get("arguments") == CALL["arguments"] and isinstance(function.get("arguments"), str), (
        f"function.arguments={function.get('arguments')!r}, expected the JSON string {CALL['arguments']!r}"
    )
