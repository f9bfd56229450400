"""What a scripted round says, whatever the format writes it as: the calls it makes and its text.

A round is a tuple of kinds (:class:`harness.loopback.round_types.Round`):
``"call"`` calls the next of the tools the request declares and the probe
allows, in name order, with arguments from the tool's schema
(:mod:`.schema_args`); ``"call0"`` calls one that needs no argument, when
the agent has one. A round with calls says it is looking; one without gives
the answer, with characters beyond ASCII. ``"empty"`` and ``"blank"`` are
text blocks holding nothing or only whitespace, as models stream them beside
calls and answers: decoders must take them, and a replay must not send back
what the provider refuses of them.
"""

from __future__ import annotations

from harness.loopback.schema_args import arguments_for

CALL_KINDS = ("call", "call0")
BLANK_TEXTS = {"empty": "", "blank": "\n\n"}  # kind -> the text of a text block that says nothing
NO_TOOL = "I have no tool I may use for that, so here is my answer."


def allowed(declared: dict[str, dict], allowed_tools: frozenset[str] | None) -> dict[str, dict]:
    return {n: s for n, s in declared.items() if allowed_tools is None or n in allowed_tools}


def round_calls(kinds: tuple[str, ...], tools: dict[str, dict], turn: int, round_: int,
                no_arguments: str) -> list[tuple[str, str] | None]:
    """Per kind of the round, the (name, arguments) of its call, or None for a kind that is not a call.

    A call kind with no tool to call is None too. ``no_arguments``: how the
    format writes a call's empty arguments.
    """
    names = sorted(tools)
    bare = [n for n in names if not (tools[n].get("required") or tools[n].get("properties"))] or names
    found: list[tuple[str, str] | None] = []
    calls = 0
    for kind in kinds:
        if kind not in CALL_KINDS or not names:
            found.append(None)
            continue
        pool = bare if kind == "call0" else names
        name = pool[calls % len(pool)]
        found.append((name, no_arguments if kind == "call0"
                      else arguments_for(tools[name], turn * 100 + round_ * 20 + calls)))
        calls += 1
    return found


def round_text(kinds: tuple[str, ...], turn: int, round_: int) -> str:
    if set(CALL_KINDS) & set(kinds):
        return f"Ich sehe nach (round {round_ + 1})."
    return f"Done: Zürich 18 °C, 東京 21 °C (turn {turn + 1})."
