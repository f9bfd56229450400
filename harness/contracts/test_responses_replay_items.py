"""Contract: an assistant turn goes back as its output items in order, reasoning whole, and the provider accepts it.

Incident: `responses-reasoning-without-following-item`,
`responses-call-without-reasoning`, `responses-bare-reasoning-id` and
`responses-encrypted-content-dropped`: histories that sent a reasoning item
without the item it preceded, a function call without its reasoning item,
a bare ``rs_`` id under ``store: false``, or lost ``encrypted_content``.

Rule: ``serialize_message({"role": "assistant", "blocks": [...]})`` returns
one input item per output item, in order (consecutive text blocks of one
``item_id`` one message's parts): each reasoning item with its id, its
``summary`` parts and its ``encrypted_content`` byte for byte; each message
with its id and texts; each function call with its id, ``call_id``, name and
arguments (the same JSON value, ``{}`` for ``""``). Sent back under
``store: false`` after the question and before one ``function_call_output``
per call (``serialize_message`` of the user message, outputs first and in
order, then the text), the provider refuses nothing
(:mod:`harness.rules.responses_history`). The neutral message is unchanged.

Level: wire (the Responses input items and the errors the provider answers).

Production fingerprint: 400 "Item 'rs_...' of type 'reasoning' was provided
without its required following item.", "... of type 'function_call' was
provided without its required 'reasoning' item", 404 "Item with id 'rs_...'
not found. Items are not persisted when `store` is set to false.", or
``invalid_encrypted_content`` "The encrypted content for item rs_... could
not be verified.", on the request after a tool round.
"""

import copy

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.contracts.responses_checks import assert_items_kept
from harness.testing.responses_incident import SUMMARIZED, TURN
from harness.rules.responses_history import item_type, refusals
from harness.testing import responses_turns as turns
from harness.testing.responses_history import as_sent
from harness.under_test.invoke import valid

pytestmark = [pytest.mark.wire, pytest.mark.formats("openai-responses")]

# Pinned: a turn with two reasoning items, each with its own encrypted_content, the first without a summary (as
# the API sends it when no summary was asked for), each before a call.
SEVERAL_REASONINGS = {"blocks": [
    {"type": "reasoning", "text": "", "signature": "gAAAAABo+z/1Aa==", "item_id": "rs_11", "summary": []},
    {"type": "tool_call", "id": "call_E", "name": "get_weather", "arguments": '{"city":"Paris"}', "item_id": "fc_E"},
    {"type": "reasoning", "text": "Oslo next.", "signature": "gAAAAABo+z/2Bb==", "item_id": "rs_12",
     "summary": ["Oslo next."]},
    {"type": "tool_call", "id": "call_F", "name": "get_weather", "arguments": '{"city":"Oslo"}', "item_id": "fc_F"},
], "stop_reason": "completed", "usage": None}


def _serialized(messages, message: dict):
    before = copy.deepcopy(message)
    got = valid(messages).serialize_message(message)
    assert message == before, f"serialize_message changed its input: now {clip_json(message, 800)}, was {clip_json(before, 800)}"
    return got


@given(turns().map(as_sent))
@example(TURN)
@example(SUMMARIZED)
@example(SEVERAL_REASONINGS)
def test_output_items_go_back_in_order_whole(messages, turn):
    items = _serialized(messages, {"role": "assistant", "blocks": turn["blocks"]})
    assert_items_kept(items, turn, f"\n  blocks: {clip_json(turn['blocks'], 1200)}\n  written: {clip_json(items, 1200)}")


@given(turns().map(as_sent), st.sampled_from(["", "And now?"]), st.sampled_from(["ok", ""]))
@example(TURN, "And now?", "")
@example(SEVERAL_REASONINGS, "", "ok")
def test_the_replayed_tool_round_is_one_the_provider_accepts(messages, turn, note, output):
    items = _serialized(messages, {"role": "assistant", "blocks": turn["blocks"]})
    results = [{"tool_call_id": b["id"], "content": output} for b in turn["blocks"] if b["type"] == "tool_call"]
    outputs = _serialized(messages, {"role": "user", "content": note, "tool_results": results})
    kinds = [item_type(o) if isinstance(o, dict) else o for o in outputs]
    answered = [o.get("call_id") for o in outputs if item_type(o) == "function_call_output"]
    assert answered == [r["tool_call_id"] for r in results], (
        f"function_call_output call_ids {answered}, expected one per result in order: {clip_json(outputs, 800)}")
    want_kinds = ["function_call_output"] * len(results) + (["message"] if note else [])
    assert kinds == want_kinds, (
        f"the user message's items are {kinds}, expected {want_kinds} (outputs first, then its text "
        f"{note!r}): {clip_json(outputs, 800)}")
    body = {"model": "gpt-5", "store": False, "input": [{"type": "message", "role": "user", "content": "Go."},
                                                        *items, *outputs]}
    refused = refusals(body, sent=[turn])
    assert not refused, (f"the provider would refuse the replayed round: {[r.message for r in refused]}"
                         f"\n  input: {clip_json(body['input'], 1500)}")
