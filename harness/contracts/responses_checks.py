"""The Responses item values beyond the shared turn, asserted one by one: the Responses stream contracts share them."""

from __future__ import annotations

from harness.clip import shown
from harness.rules import blocks


def assert_same_items(got: dict, want: dict, where: str) -> None:
    """Each block's item id (``rs_``, ``msg_``, ``fc_``) and each reasoning item's summary parts are as streamed."""
    for kind in ("reasoning", "text", "tool_call"):
        differs = blocks.block_values(got, want, kind, "item_id")
        assert not differs, f"{kind} blocks' item ids (k-th, got, expected) differ: {shown(differs)}; {where}"
    differs = blocks.block_values(got, want, "reasoning", "summary")
    assert not differs, f"reasoning summaries (k-th, got, expected) are not the parts streamed: {shown(differs)}; {where}"
