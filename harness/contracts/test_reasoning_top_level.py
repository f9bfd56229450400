"""Contract: ``reasoning_content`` is a top-level field of the assistant message.

Incident: a DeepSeek-backed agent kernel lost every round's reasoning on its
way back to the provider (incident `deepseek-reasoning-400`). In thinking mode with tools the provider
requires each earlier assistant turn to carry its reasoning, and it looks for
it in exactly one place: a ``reasoning_content`` key beside ``content``.

Rule: serializing an assistant message with reasoning yields
``reasoning_content`` at the top level, equal to the input, with ``content``
carrying the untouched text (a string or text parts); the same holds when the
message carries ``tool_calls`` (whose ``content`` then holds no text: null,
absent, ``""`` or text parts joining to ``""``).

Level: provider (``reasoning_content`` is DeepSeek's extension of the
format; ``serialize_message`` keeps it so the request transform can send it
to the providers that want it back).

Production fingerprint: every request after a tool round fails with HTTP 400
"The reasoning_content in the thinking mode must be passed back to the API."
"""

import pytest
from hypothesis import given, strategies as st

from harness.clip import clip_repr, shown
from harness.testing import content_text
from harness.under_test.invoke import valid

pytestmark = pytest.mark.provider

CALL = {"id": "call_invoice", "name": "sql_query", "arguments": '{"sql":"select * from invoice"}'}


def _assistant(content, reasoning, tool_calls=()):
    return {"role": "assistant", "content": content, "reasoning": reasoning, "tool_calls": list(tool_calls)}


def _check_top_level(messages, message):
    wire = messages.serialize_message(message)
    assert "reasoning_content" in wire, (
        f"expected a top-level 'reasoning_content' key, got keys {shown(sorted(wire))} for input {shown(message, 1500)}"
    )
    assert wire["reasoning_content"] == message["reasoning"], (
        f"reasoning_content={shown(wire['reasoning_content'], 1500)}, but should equal the input reasoning "
        f"{clip_repr(message['reasoning'], 1500)}"
    )
    return wire


def test_reasoning_is_top_level_beside_content(messages):
    messages = valid(messages)
    message = _assistant("The invoice was issued on the 12th.", "They asked about billing, not orders.")
    wire = _check_top_level(messages, message)
    assert content_text(wire.get("content")) == message["content"], (
        f"content={shown(wire.get('content'))}, but should be the untouched text {shown(message['content'])} "
        f"(reasoning must not leak into it); input {message!r}"
    )


def test_reasoning_is_top_level_with_tool_calls(messages):
    messages = valid(messages)
    message = _assistant(None, "Need the invoice table first.", [CALL])
    wire = _check_top_level(messages, message)
    calls = wire.get("tool_calls") or []
    assert [c.get("id") for c in calls] == [CALL["id"]], (
        f"tool_calls ids={shown([c.get('id') for c in calls])}, expected {shown([CALL['id']])} for input "
        f"{shown(message)}"
    )
    assert wire.get("content") is None or content_text(wire["content"]) == "", (
        f"content={shown(wire.get('content'))}, but a tool-calls-only message carrying reasoning should hold no text "
        f"(null, absent or ''): the reasoning belongs in reasoning_content; input {message!r}"
    )


@given(content=st.text(min_size=1), reasoning=st.text(min_size=1))
def test_any_reasoning_round_trips_verbatim(messages, content, reasoning):
    messages = valid(messages)
    message = _assistant(content, reasoning)
    wire = _check_top_level(messages, message)
    assert content_text(wire.get("content")) == content, (
        f"content={shown(wire.get('content'), 700)}, expected {shown(content, 700)} unchanged for reasoning "
        f"{shown(reasoning, 700)}"
    )
