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
``invalid_encrypted_content``, on the request after a tool round.
"""

import copy
import json

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import clip_json
from harness.contracts.test_responses_stream_items import TURN
from harness.rules.responses_history import refusals
from harness.testing import responses_turns as turns
from harness.under_test.invoke import valid
from harness.wire.responses_events import done_item, items_of

pytestmark = [pytest.mark.wire, pytest.mark.formats("openai-responses")]


def _as_sent(turn: dict) -> dict:
    """The turn as a store-false provider sends it: every reasoning item encrypted and followed by an output item."""
    blocks = []
    for n, block in enumerate(turn["blocks"]):
        if block["type"] == "reasoning":
            after = turn["blocks"][n + 1] if n + 1 < len(turn["blocks"]) else None
            if after is None or after["type"] == "reasoning":
                continue
            block = {**block, "signature": block["signature"] or "gAAAAABo"}
        blocks.append(block)
    return {**turn, "blocks": blocks}


def _serialized(messages, message: dict):
    before = copy.deepcopy(message)
    got = valid(messages).serialize_message(message)
    assert message == before, f"serialize_message changed its input: now {clip_json(message, 800)}, was {clip_json(before, 800)}"
    return got


def _arguments(item: dict):
    try:
        return json.loads(item.get("arguments") or "{}")
    except (TypeError, json.JSONDecodeError):
        return item.get("arguments")


@given(turns().map(_as_sent))
@example(TURN)
def test_output_items_go_back_in_order_whole(messages, turn):
    items = _serialized(messages, {"role": "assistant", "blocks": turn["blocks"]})
    want = [done_item(item) for item in items_of(turn)]
    where = f"\n  blocks: {clip_json(turn['blocks'], 1200)}\n  written: {clip_json(items, 1200)}"
    assert isinstance(items, list), f"serialize_message should return the list of input items{where}"
    got_types = [i.get("type") if isinstance(i, dict) else i for i in items]
    assert got_types == [w["type"] for w in want], f"item types in order {got_types}, expected {[w['type'] for w in want]}{where}"
    pairs = list(zip(items, want))
    ids = [(g.get("id"), w["id"]) for g, w in pairs if g.get("id") != w["id"]]
    assert not ids, f"item ids (got, expected) differ: {ids}{where}"
    enc = [(g.get("encrypted_content"), w.get("encrypted_content")) for g, w in pairs
           if w["type"] == "reasoning" and g.get("encrypted_content") != w.get("encrypted_content")]
    assert not enc, f"encrypted_content (got, expected) is not byte-identical: {enc}{where}"
    summaries = [(g.get("summary"), w["summary"]) for g, w in pairs if w["type"] == "reasoning"
                 and [p.get("text") for p in g.get("summary") or []] != [p["text"] for p in w["summary"]]]
    assert not summaries, f"reasoning summaries (got, expected) differ: {summaries}{where}"
    calls = [(g.get("call_id"), g.get("name"), w["call_id"], w["name"]) for g, w in pairs
             if w["type"] == "function_call" and (g.get("call_id"), g.get("name")) != (w["call_id"], w["name"])]
    assert not calls, f"function calls (call_id, name got; expected) differ: {calls}{where}"
    args = [(g.get("arguments"), w["arguments"]) for g, w in pairs
            if w["type"] == "function_call" and _arguments(g) != _arguments(w)]
    assert not args, f"function call arguments (got, expected) are not the same JSON value: {args}{where}"
    texts = [(g.get("content"), w["content"]) for g, w in pairs if w["type"] == "message"
             and [p.get("text") for p in g.get("content") or []] != [p["text"] for p in w["content"]]]
    assert not texts, f"message texts (got, expected) differ: {texts}{where}"


@given(turns().map(_as_sent), st.sampled_from(["", "And now?"]), st.sampled_from(["ok", ""]))
@example(TURN, "And now?", "")
def test_the_replayed_tool_round_is_one_the_provider_accepts(messages, turn, note, output):
    items = _serialized(messages, {"role": "assistant", "blocks": turn["blocks"]})
    results = [{"tool_call_id": b["id"], "content": output} for b in turn["blocks"] if b["type"] == "tool_call"]
    outputs = _serialized(messages, {"role": "user", "content": note, "tool_results": results})
    kinds = [o.get("type") if isinstance(o, dict) else o for o in outputs]
    answered = [o.get("call_id") for o in outputs if isinstance(o, dict) and o.get("type") == "function_call_output"]
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
