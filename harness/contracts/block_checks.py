"""The block rules (``harness.rules.blocks``) asserted one by one on a decoded turn: the stream contracts share them.

Each sub-rule is its own ``assert`` line, so Hypothesis reports a failure of
each separately and one broken part never hides another.
"""

from __future__ import annotations

from harness.clip import shown
from harness.rules import blocks


def assert_same_turn(got: dict, want: dict, where: str) -> None:
    """``got`` is the turn ``want`` that was streamed, part by part; ``where`` names the input."""
    assert isinstance(got, dict), f"parse_stream returned {shown(got)}, but should return a turn; {where}"
    # The opaque values first, each on its own: a change of shape never hides one lost or moved.
    assert_signatures(got, want, where)
    differs = blocks.opaque_values(got, want, "redacted_reasoning")
    assert not differs, (
        f"redacted data (k-th redacted block, got, expected) is not what was streamed, byte for byte: "
        f"{shown(differs)}; {where}")
    differs = blocks.block_types(got, want)
    assert not differs, f"block types (position, got, expected) differ: {shown(differs)}; {where}"
    differs = blocks.texts(got, want, "text")
    assert not differs, f"text blocks' texts (k-th text block, got, expected) differ: {shown(differs)}; {where}"
    differs = blocks.texts(got, want, "reasoning")
    assert not differs, f"reasoning blocks' texts (k-th, got, expected) differ: {shown(differs)}; {where}"
    assert_calls(got, want, where)
    differs = blocks.stop_reason(got, want)
    assert not differs, f"stop reason (got, expected) differs: {shown(differs)}; {where}"
    differs = blocks.usage(got, want)
    assert not differs, f"usage (got, expected) differs: {shown(differs)}; {where}"


def assert_signatures(got: dict, want: dict, where: str) -> None:
    """Each reasoning block's signature is ``want``'s, byte for byte."""
    differs = blocks.opaque_values(got, want, "reasoning")
    assert not differs, (
        f"signatures (k-th reasoning block, got, expected) are not the streamed pieces joined byte for byte: "
        f"{shown(differs)}; {where}")


def assert_calls(got: dict, want: dict, where: str) -> None:
    """``want``'s calls are there by id, once each, with their names and arguments (as JSON values)."""
    differs = blocks.call_ids(got, want)
    assert not differs, f"calls by id differ from the calls streamed: {shown(differs)}; {where}"
    differs = blocks.call_fields(got, want, "name")
    assert not differs, f"calls' names (id, got, expected) differ: {shown(differs)}; {where}"
    differs = blocks.call_fields(got, want, "arguments")
    assert not differs, (
        f"calls' arguments (id, got, expected) are not, as JSON values, their pieces joined in arrival order: "
        f"{shown(differs)}; {where}")
