"""The Responses values beyond the shared turn, asserted one by one: decoded blocks (the stream contracts) and written items."""

from __future__ import annotations

import json

from harness.clip import shown
from harness.rules import blocks
from harness.rules.responses_history import item_type
from harness.wire.responses_events import done_item, items_of


def assert_same_items(got: dict, want: dict, where: str) -> None:
    """Each block's item id (``rs_``, ``msg_``, ``fc_``) and each reasoning item's summary parts are as streamed."""
    for kind in ("reasoning", "text", "tool_call"):
        differs = blocks.block_values(got, want, kind, "item_id")
        assert not differs, f"{kind} blocks' item ids (k-th, got, expected) differ: {shown(differs)}; {where}"
    differs = blocks.block_values(got, want, "reasoning", "summary")
    assert not differs, f"reasoning summaries (k-th, got, expected) are not the parts streamed: {shown(differs)}; {where}"


def _arguments(item: dict):
    try:
        return json.loads(item.get("arguments") or "{}")
    except (TypeError, json.JSONDecodeError):
        return item.get("arguments")


def _texts(parts: object) -> object:
    """The texts of a list of parts, in order (a string content is its one text); any other value as it is."""
    if isinstance(parts, str):
        return [parts]
    if isinstance(parts, list) and all(isinstance(p, dict) for p in parts):
        return [p.get("text") for p in parts]
    return parts


def _says_nothing(item: object) -> bool:
    """A message item without any text: it carries nothing the model reads, so a replay may leave it out or keep it."""
    if not (isinstance(item, dict) and item_type(item) == "message"):
        return False
    content = item.get("content")
    return content == "" or isinstance(content, list) and not any(
        isinstance(p, dict) and p.get("text") for p in content)


def assert_items_kept(items: object, turn: dict, where: str) -> None:
    """``items`` are ``turn``'s output items written back: order, ids, reasoning whole, calls, texts; each its own assert.

    A message item without text may be left out or kept (the wire tells nothing apart); every other item is there."""
    want = [w for w in map(done_item, items_of(turn)) if not _says_nothing(w)]
    assert isinstance(items, list), f"the turn's items should be a list of input items, not {shown(items)}{where}"
    odd = [i for i in items if not isinstance(i, dict)]
    assert not odd, f"every input item should be an object; got {shown(odd)}{where}"
    items = [i for i in items if not _says_nothing(i)]
    # The opaque values first, on their own: each reasoning item's encrypted_content, in order, whatever the shape.
    enc = ([i.get("encrypted_content") for i in items if item_type(i) == "reasoning"],
           [w.get("encrypted_content") for w in want if w["type"] == "reasoning"])
    assert enc[0] == enc[1], (
        f"the reasoning items' encrypted_content, in order, is {enc[0]}, but should be {enc[1]}, byte for byte{where}")
    got_types = [item_type(i) for i in items]
    assert got_types == [w["type"] for w in want], f"item types in order {got_types}, expected {[w['type'] for w in want]}{where}"
    pairs = list(zip(items, want))
    ids = [(g.get("id"), w["id"]) for g, w in pairs if g.get("id") != w["id"]]
    assert not ids, f"item ids (got, expected) differ: {ids}{where}"
    summaries = [(g.get("summary"), w["summary"]) for g, w in pairs if w["type"] == "reasoning"
                 and _texts(g.get("summary")) != _texts(w["summary"])]
    assert not summaries, f"reasoning summaries (got, expected) differ: {summaries}{where}"
    calls = [(g.get("call_id"), g.get("name"), w["call_id"], w["name"]) for g, w in pairs
             if w["type"] == "function_call" and (g.get("call_id"), g.get("name")) != (w["call_id"], w["name"])]
    assert not calls, f"function calls (call_id, name got; expected) differ: {calls}{where}"
    args = [(g.get("arguments"), w["arguments"]) for g, w in pairs
            if w["type"] == "function_call" and _arguments(g) != _arguments(w)]
    assert not args, f"function call arguments (got, expected) are not the same JSON value: {args}{where}"
    texts = [(g.get("content"), w["content"]) for g, w in pairs if w["type"] == "message"
             and _texts(g.get("content")) != _texts(w["content"])]
    assert not texts, f"message texts (got, expected) differ: {texts}{where}"
