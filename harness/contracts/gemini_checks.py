"""A decoded Gemini turn judged by the shared block rules, plus the signatures Gemini puts on any part.

Gemini calls have no identity beyond their place among the turn's parts (an
``id`` only on newer models) and their ``args`` are a JSON object, so before
the shared sub-rules of :func:`harness.contracts.block_checks.assert_same_turn`
run, each call is named by its id and its position among the calls, and a
decoded call's arguments that are the same JSON value as the streamed ones
(``""`` is ``{}``) count as the same text. Each signature sub-rule is its own
``assert`` line.
"""

from __future__ import annotations

from harness.clip import shown
from harness.contracts.block_checks import assert_same_turn
from harness.rules import blocks
from harness.testing import same_arguments


def _calls(turn: object) -> list[dict]:
    found = turn.get("blocks") if isinstance(turn, dict) else None
    return [b for b in found if isinstance(b, dict) and b.get("type") == "tool_call"] if isinstance(found, list) else []


def _args(text: object) -> object:
    return text or "{}" if isinstance(text, str) else text


def _named(turn: dict, want: list[dict] | None = None) -> dict:
    """``turn`` with each call's id as ``id#k`` and, beside ``want``'s calls, arguments of the same JSON value as theirs."""
    if not isinstance(turn, dict) or not isinstance(turn.get("blocks"), list):
        return turn
    k, named = 0, []
    for block in turn["blocks"]:
        if isinstance(block, dict) and block.get("type") == "tool_call":
            block = {**block, "id": f"{block.get('id')}#{k}"}
            if want is not None and k < len(want) and same_arguments(_args(block.get("arguments")),
                                                                    _args(want[k]["arguments"])):
                block["arguments"] = want[k]["arguments"]
            k += 1
        named.append(block)
    return {**turn, "blocks": named}


def assert_same_gemini_turn(got: dict, want: dict, where: str) -> None:
    """``got`` is the Gemini turn ``want`` that was streamed, part by part; ``where`` names the input."""
    assert_same_turn(_named(got, _calls(want)), _named(want), where)
    differs = blocks.block_values(got, want, "text", "signature")
    assert not differs, (
        f"text parts' thoughtSignature (k-th text block, got, expected) is not the one that came on that part: "
        f"{shown(differs)}; {where}")
    differs = blocks.block_values(got, want, "tool_call", "signature")
    assert not differs, (
        f"functionCall parts' thoughtSignature (k-th call, got, expected) is not the one that came on that part: "
        f"{shown(differs)}; {where}")
