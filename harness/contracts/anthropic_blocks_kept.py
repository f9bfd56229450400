"""The Messages blocks as received, asserted sub-rule by sub-rule: the serializer, kernel and memory contracts share it.

Each sub-rule of :func:`harness.testing.anthropic_history.block_changes` is its
own ``assert`` line, so Hypothesis reports each broken part separately.
"""

from __future__ import annotations

from harness.testing.anthropic_history import block_changes


def assert_blocks_kept(got: object, want: list[dict], where: str) -> None:
    """The wire ``content`` blocks ``got`` are ``want``: thinking, redacted data, order, calls, inputs, texts, none blank."""
    changes = block_changes(got, want)
    # The opaque values first, each on its own: a change of shape never hides one lost or moved.
    assert "thinking" not in changes, f"thinking (text, signature) {changes.get('thinking')}; {where}"
    assert "redacted" not in changes, f"redacted_thinking data {changes.get('redacted')}; {where}"
    assert "order" not in changes, f"the blocks' types in order are {changes.get('order')}; {where}"
    assert "calls" not in changes, f"tool_use (id, name) {changes.get('calls')}; {where}"
    assert "input" not in changes, (
        f"tool_use input (the parsed arguments, {{}} for \"\") {changes.get('input')}; {where}")
    assert "text" not in changes, f"the texts are {changes.get('text')}; {where}"
    assert "empty" not in changes, f"{changes.get('empty')}: Anthropic refuses blank text; {where}"
