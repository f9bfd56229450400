"""Contract: persisted rounds render back with every block as received and every call answered first.

Incident: replay from storage rebuilt the content as all thinking, then
text, then tools (incident `anthropic-replay-regrouped`) or dropped the thinking of the tool
turn (incident `anthropic-thinking-dropped`); results rendered where no call precedes them
break the pairing for good (incident `batch-path-pairing`).

Rule: ``render_history(events)`` of persisted rounds (several turns, each
tool rounds and an answer, any of them with or without thinking; possibly
cut before the latest turn's answer) gives the messages of the next request:

- one assistant message per round, in order, holding the round's blocks
  exactly as persisted: types in order, thinking text and signature and
  redacted data byte for byte, tool_use id, name and input (``{}`` for
  ``""``), texts; no empty text block;
- each round's results open the next user message, one ``tool_result`` per
  call (paired by id, any order), each with the persisted content (a string,
  text blocks, or ``[]`` or nothing for an empty result); a turn's question
  is the text (a text block, or the string form) of the user messages before
  its first round, after any results: in the results' message or in one of
  its own right after it (Anthropic takes either);
- roles alternate (but for results and a question in two user messages)
  and the first message is the user's; judged as Anthropic
  would judge it (thinking enabled when the latest turn thought; the rounds
  as sent), nothing is refused.

The events are left as they were.

Level: wire (the history Anthropic's Messages API accepts).

Production fingerprint: the first request of a resumed session answers HTTP
400 "`thinking` or `redacted_thinking` blocks in the latest assistant message
cannot be modified" or "roles must alternate between "user" and "assistant"";
every later turn fails the same way.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json, shown
from harness.contracts.anthropic_blocks_kept import assert_blocks_kept
from harness.rules.anthropic_history import refusals, tool_result_text
from harness.testing import anthropic_persisted_rounds, anthropic_wire_message
from harness.testing.anthropic_history import (
    INTERLEAVED_ANSWER,
    INTERLEAVED_TURN,
    calls_of,
    content_blocks,
)
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("anthropic")]

PINNED = [
    {"input": "Weather and folder?", "blocks": INTERLEAVED_TURN["blocks"], "timestamp": 1731300000.0,
     "tool_results": [{"tool_call_id": "toolu_03", "content": "a.txt"}, {"tool_call_id": "toolu_01", "content": ""},
                      {"tool_call_id": "toolu_02", "content": "12\u00b0C"}]},
    {"input": None, "blocks": INTERLEAVED_ANSWER["blocks"], "tool_results": [], "timestamp": 1731300000.0},
    {"input": "And tomorrow?", "blocks": [{"type": "text", "text": "Rain."}], "tool_results": [],
     "timestamp": 1731300060.0},
]


def _render(kernel, events: list[dict]) -> list[dict]:
    before = copy.deepcopy(events)
    messages = valid(kernel).render_history(events)
    assert events == before, f"render_history changed the events it was given: {clip_json(events, 1000)}"
    assert isinstance(messages, list), f"render_history returned {shown(messages)}, expected a list of messages"
    return messages


def _cut(events: list[dict], drop: int) -> list[dict]:
    """The events with the last ``drop`` rounds left out, never the first: a history right before a model round."""
    return events[:max(1, len(events) - drop)]


@given(events=anthropic_persisted_rounds())
@example(events=PINNED)
@example(events=PINNED[:1])
def test_each_round_renders_as_received(kernel, events):
    messages = _render(kernel, events)
    assistants = [m for m in messages if isinstance(m, dict) and m.get("role") == "assistant"]
    assert len(assistants) == len(events), (
        f"{len(assistants)} assistant messages rendered from {len(events)} rounds, expected one per round; "
        f"{clip_json(messages, 1500)}")
    for n, (message, event) in enumerate(zip(assistants, events)):
        assert_blocks_kept(content_blocks(message), anthropic_wire_message(event["blocks"])["content"],
                           f"round {n + 1}: rendered {clip_json(message, 1000)}")


def _blocks(message: dict) -> list:
    blocks = content_blocks(message)
    return blocks if isinstance(blocks, list) else []


def _users_after(messages: list, k: int) -> list[dict]:
    """The user messages right after message ``k``, up to the next message of another role."""
    users = []
    for message in messages[k + 1:]:
        if not (isinstance(message, dict) and message.get("role") == "user"):
            break
        users.append(message)
    return users


@given(events=anthropic_persisted_rounds())
@example(events=PINNED)
def test_results_open_the_next_user_message_and_questions_follow(kernel, events):
    messages = _render(kernel, events)
    at = [k for k, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"]
    for n, (k, event) in enumerate(zip(at, events)):
        calls = calls_of(event["blocks"])
        users = _users_after(messages, k)
        blocks = _blocks(users[0]) if users else []
        opening = [b for b in blocks[:len(calls)] if isinstance(b, dict) and b.get("type") == "tool_result"]
        got = sorted((str(b.get("tool_use_id")), tool_result_text(b)) for b in opening)
        want = sorted((r["tool_call_id"], r["content"]) for r in event["tool_results"])
        assert got == want, (
            f"round {n + 1}: the next message opens with the results {shown(got)}, but should open with one "
            f"tool_result per call, paired by id: {shown(want)}; {clip_json(messages[k:k + 2], 1200)}")
        question = events[n + 1]["input"] if n + 1 < len(events) else None
        if question:
            after = blocks[len(calls):] + [b for m in users[1:] for b in _blocks(m)]
            texts = [b.get("text") for b in after if isinstance(b, dict) and b.get("type") == "text"]
            assert texts == [question], (
                f"round {n + 2} asks {question!r}: after round {n + 1}'s results the user's text should be it, "
                f"is {shown(texts)}")
    first = content_blocks(messages[0]) if messages and messages[0].get("role") == "user" else []
    assert [b.get("text") for b in first if isinstance(b, dict)] == [events[0]["input"]], (
        f"the history should open with the user's question {events[0]['input']!r}: {clip_json(messages[:1], 500)}")


@given(events=anthropic_persisted_rounds(), drop=st.integers(0, 2))
@example(events=PINNED, drop=2)
def test_anthropic_refuses_nothing_in_the_rendered_history(kernel, events, drop):
    events = _cut(events, drop)
    messages = _render(kernel, events)
    latest = events[-1]["blocks"][0]["type"] in ("reasoning", "redacted_reasoning")
    body = {"model": "claude", "max_tokens": 4096, "messages": messages}
    if latest:
        body["thinking"] = {"type": "enabled", "budget_tokens": 1024}
    refused = refusals(body, sent=[{"blocks": e["blocks"]} for e in events])
    assert not refused, (
        f"Anthropic would answer the rendered history with 400: {[r.message for r in refused]}\n"
        f"  messages: {clip_json(messages, 2000)}")
