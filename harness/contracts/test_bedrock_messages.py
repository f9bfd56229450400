"""Contract: a model turn goes back as one Converse message, every block as received; results go back alone, one per call.

Incident: `bedrock-signature-joined` and `bedrock-redacted-dropped` on the
way back (a reasoning block's signature dropped, joined to another's, or a
redacted block left out); `bedrock-tool-result-shape` (a ``toolResult``
with an empty text block, a status Bedrock does not have, results after the
text, or ``toolUseId`` rewritten into a form Bedrock refuses).

Rule: ``serialize_message({"role": "assistant", "blocks": [...]})`` writes
``{"role": "assistant", "content": [...]}`` with one content block per block
that carries something, in the same order: ``reasoningContent.reasoningText``
with the block's text and its own signature byte for byte (a reasoning block
without a signature is left out: Bedrock's Claude refuses it unsigned),
``reasoningContent.redactedContent`` with the bytes sent, ``text`` (a blank
one left out, or a non-blank placeholder in its place: Bedrock refuses blank
text, and either way nothing the model said is lost), ``toolUse`` with its ``toolUseId``, ``name`` and ``input`` the
arguments as an object (``{}`` for ``""``). ``serialize_message({"role":
"user", "content": "", "tool_results": [...]})`` writes the ``toolResult``
blocks alone, in order, each with its ``toolUseId`` and its content as a
text block (none for an empty result, or a non-blank placeholder: Bedrock
refuses an empty text block);
no conversation block beside them, which Bedrock refuses in a turn of
results. A ``status`` is optional (AWS requires only the id and the content;
some models take none): none, or ``success`` for these results (``error``
would tell the model its tools failed). Judged as the next request carries
them (question, turn, results), Bedrock refuses nothing. The neutral message is
left as it was.

Level: wire (Converse's message schema and the ``ValidationException`` texts it answers).

Production fingerprint: "messages.1.content.0.thinking.signature: Field
required"; "`thinking` or `redacted_thinking` blocks in the latest assistant
message cannot be modified"; "The text field in the ContentBlock object at
messages.2.content.0 is blank"; "Expected toolResult blocks at
messages.2.content for the following Ids: tooluse_...".
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.rules.bedrock_history import refusals
from harness.testing.bedrock_history import (assistant_message, calls_of, placeholder_dropped, placeholders_dropped,
                                             result_block, results_for, status_as_required, turns)
from harness.testing.bedrock_incident import ANSWER, TURN
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("bedrock")]

# Blank text as models stream it: empty, and the "\n\n" Claude writes before a call.
UNSIGNED_AND_EMPTY = {"blocks": [{"type": "reasoning", "text": "unsigned", "signature": ""},
                                 {"type": "text", "text": ""},
                                 {"type": "text", "text": "\n\n"},
                                 {"type": "tool_call", "id": "tooluse_a.b:c-1", "name": "list_dir", "arguments": ""}],
                      "stop_reason": "tool_use", "usage": None}
TOOL_CONFIG = {"tools": [{"toolSpec": {"name": n, "description": n, "inputSchema": {"json": {"type": "object"}}}}
                         for n in ("read_file", "get_weather", "list_dir", "get_time")]}


def _serialized(messages, message: dict) -> dict:
    before = copy.deepcopy(message)
    wire = valid(messages).serialize_message(message)
    assert message == before, (
        f"serialize_message changed the neutral message it was given: now {clip_json(message, 800)}, "
        f"was {clip_json(before, 800)}")
    return wire


@given(turn=turns(max_calls=6))
@example(turn=TURN)
@example(turn=ANSWER)
@example(turn=UNSIGNED_AND_EMPTY)
def test_a_model_turn_goes_back_block_by_block(messages, turn):
    wire = _serialized(messages, {"role": "assistant", "blocks": turn["blocks"]})
    want = assistant_message(turn)
    where = f"\n  neutral: {clip_json(turn['blocks'], 1200)}\n  written: {clip_json(wire, 1200)}"
    assert isinstance(wire, dict) and wire.get("role") == "assistant", f"role should be 'assistant'{where}"
    content = wire.get("content")
    assert isinstance(content, list), f"content should be a list of content blocks{where}"
    got_reasoning = [b["reasoningContent"] for b in content if isinstance(b, dict) and "reasoningContent" in b]
    want_reasoning = [b["reasoningContent"] for b in want["content"] if "reasoningContent" in b]
    assert got_reasoning == want_reasoning, (
        f"the reasoning blocks should go back each with its own text and signature, redacted bytes as sent: "
        f"{clip_json(got_reasoning, 800)}, but should be {clip_json(want_reasoning, 800)}{where}")
    kept = placeholders_dropped(content, turn["blocks"])
    assert kept == want["content"], (f"content {clip_json(content, 1200)} (placeholders of blank blocks taken out: "
                                     f"{clip_json(kept, 1200)}), but should be {clip_json(want['content'], 1200)}{where}")
    results = results_for(turn, ["ok"] * len(calls_of(turn)))
    history = [{"role": "user", "content": [{"text": "Go."}]}, wire] + (
        [{"role": "user", "content": [result_block(r) for r in results]}] if results else [])
    refused = refusals({"messages": history, "toolConfig": TOOL_CONFIG}, sent=[turn])
    assert not refused, (f"Bedrock would answer 400 to the message as the next request carries it: "
                         f"{[(r.path, r.message) for r in refused]}{where}")


@given(turn=turns(min_calls=1, max_calls=6), data=st.data())
@example(turn=TURN, data=None)
def test_results_go_back_alone_one_per_call(messages, turn, data):
    contents = ["12", "", "14:05 " * 3][: len(calls_of(turn))] if data is None else [
        data.draw(st.sampled_from(["", "ok", "línea\n2", " "])) for _ in calls_of(turn)]
    contents += ["x"] * (len(calls_of(turn)) - len(contents))
    results = results_for(turn, contents)
    message = {"role": "user", "content": "", "tool_results": results}
    wire = _serialized(messages, message)
    where = f"\n  neutral: {clip_json(message, 1200)}\n  written: {clip_json(wire, 1200)}"
    content = wire.get("content") if isinstance(wire, dict) else None
    assert isinstance(content, list) and wire.get("role") == "user", f"a user message with a content list{where}"
    want = [result_block(r) for r in results]
    kept = [placeholder_dropped(status_as_required(b), r["content"]) for b, r in zip(content, results)]
    assert len(content) == len(results) and kept == want, (
        f"the toolResult blocks alone, one per call in order, each with its toolUseId, no status or 'success', and "
        f"its content as a text block (none when empty): {clip_json(content, 1200)}, but should be "
        f"{clip_json(want, 1200)}{where}")
    history = [{"role": "user", "content": [{"text": "Go."}]}, {"role": "assistant", "content": [
        {"toolUse": {"toolUseId": c["id"], "name": c["name"], "input": {}}} for c in calls_of(turn)]}, wire]
    refused = refusals({"messages": history, "toolConfig": TOOL_CONFIG})
    assert not refused, (f"Bedrock would answer 400 to the results as the next request carries them: "
                         f"{[(r.path, r.message) for r in refused]}{where}")
