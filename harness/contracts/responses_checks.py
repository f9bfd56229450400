"""The Responses values beyond the shared turn, asserted one by one: decoded blocks (the stream contracts) and written items."""

from __future__ import annotations

from harness.clip import shown
from harness.rules import blocks
from harness.testing.responses_history import item_changes


def assert_same_items(got: dict, want: dict, where: str) -> None:
    """Each block's item id (``rs_``, ``msg_``, ``fc_``) and each reasoning item's summary parts are as streamed."""
    for kind in ("reasoning", "text", "tool_call"):
        differs = blocks.block_values(got, want, kind, "item_id")
        assert not differs, f"{kind} blocks' item ids (k-th, got, expected) differ: {shown(differs)}; {where}"
    differs = blocks.block_values(got, want, "reasoning", "summary")
    assert not differs, f"reasoning summaries (k-th, got, expected) are not the parts streamed: {shown(differs)}; {where}"


def assert_items_kept(items: object, turn: dict, where: str) -> None:
    """``items`` are ``turn``'s output items written back: order, ids, reasoning whole, calls, texts; each its own assert
    (:func:`harness.testing.responses_history.item_changes`).

    A message item without text may be left out or kept (the wire tells nothing apart); every other item is there."""
    changes = item_changes(items, turn)
    assert "items" not in changes, f"the turn's items are {changes.get('items')}{where}"
    # The opaque values first, on their own: each reasoning item's encrypted_content, in order, whatever the shape.
    assert "encrypted" not in changes, f"{changes.get('encrypted')}, byte for byte{where}"
    assert "types" not in changes, f"{changes.get('types')}{where}"
    assert "ids" not in changes, f"{changes.get('ids')}{where}"
    assert "summaries" not in changes, f"{changes.get('summaries')}{where}"
    assert "calls" not in changes, f"{changes.get('calls')}{where}"
    assert "arguments" not in changes, f"{changes.get('arguments')}{where}"
    assert "texts" not in changes, f"{changes.get('texts')}{where}"
