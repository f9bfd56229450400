"""A decoded Gemini turn judged by the shared block rules, plus the signatures Gemini puts on any part.

The shared sub-rules (:func:`harness.contracts.block_checks.assert_same_turn`)
read the turns as :func:`harness.testing.gemini_streams.comparable` names
their calls; each signature sub-rule is its own ``assert`` line.
"""

from __future__ import annotations

from harness.clip import shown
from harness.contracts.block_checks import assert_same_turn
from harness.rules import blocks
from harness.testing.gemini_streams import comparable


def assert_signatures_on_parts(got: object, want: dict, where: str) -> None:
    """Each text's and each call's ``thoughtSignature`` is the one that came on that part, none moved or added."""
    differs = blocks.block_values(got, want, "text", "signature")
    assert not differs, (
        f"text parts' thoughtSignature (k-th text block, got, expected) is not the one that came on that part: "
        f"{shown(differs)}; {where}")
    differs = blocks.block_values(got, want, "tool_call", "signature")
    assert not differs, (
        f"functionCall parts' thoughtSignature (k-th call, got, expected) is not the one that came on that part: "
        f"{shown(differs)}; {where}")


def assert_same_gemini_turn(got: dict, want: dict, where: str) -> None:
    """``got`` is the Gemini turn ``want`` that was streamed, part by part; ``where`` names the input.

    The signatures first: an opaque value moved or dropped is reported whatever else differs."""
    assert_signatures_on_parts(got, want, where)
    assert_same_turn(*comparable(got, want), where)
