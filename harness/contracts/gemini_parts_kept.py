"""Gemini parts as received, asserted sub-rule by sub-rule: the serializer and replay contracts share it.

Each sub-rule of :func:`harness.testing.gemini_history.part_changes` is its
own ``assert`` line, so Hypothesis reports each broken part separately; the
opaque values (the signatures) are asserted first, on their own, so a change of
shape Gemini accepts (adjacent unsigned texts merged) never hides one moved or
dropped.
"""

from __future__ import annotations

from harness.testing.gemini_history import part_changes


def assert_parts_kept(got: object, want: list[dict], where: str) -> None:
    """The wire ``parts`` ``got`` are ``want``: signatures, kinds in order, texts, calls, ids, args, none empty."""
    changes = part_changes(got, want)
    assert "signatures" not in changes, (
        f"each signed part, in order (none where none came) is {changes.get('signatures')}; {where}")
    assert "order" not in changes, f"the parts' kinds in order are {changes.get('order')}; {where}"
    assert "thought" not in changes, f"the thought parts' texts are {changes.get('thought')}; {where}"
    assert "text" not in changes, f"the text parts' texts are {changes.get('text')}; {where}"
    assert "calls" not in changes, f"the functionCall names in order are {changes.get('calls')}; {where}"
    assert "ids" not in changes, (
        f"the functionCall ids (only where the call had one) are {changes.get('ids')}; {where}")
    assert "args" not in changes, f"functionCall args (the arguments as an object) {changes.get('args')}; {where}"
    assert "empty" not in changes, f"{changes.get('empty')}; {where}"
