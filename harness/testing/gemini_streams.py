"""Hypothesis strategies for Gemini streams: neutral turns and the plans that write them.

:func:`turns` draws every part Gemini sends in any order (text, thought text,
function calls), a ``thoughtSignature`` on any of them, calls with or without
ids (newer models send them), arguments as any JSON object or none, unicode
and empty text, 0 to 12 calls, every finish reason. :func:`plans` draws how
the turn is cut into chunks (several parts in one chunk, chunks without
parts), running usage on earlier chunks, the finish reason in a chunk of its
own, candidates without their optional keys, a signed empty text part as its
signature alone, and the SSE framings.
:func:`harness.wire.gemini_events.turn_body` writes the pair as a body.
:func:`comparable` reads a decoded turn beside the sent one the way Gemini
counts two turns the same.
"""

from __future__ import annotations

from hypothesis import strategies as st

from harness.rules.pairing import same_arguments
from harness.testing.anthropic_history import arguments
from harness.testing.gemini_history import signatures
from harness.testing.anthropic_streams import any_text, framings
from harness.wire.gemini_events import Plan

FINISH_REASONS = ("STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "LANGUAGE", "OTHER", "BLOCKLIST",
                  "PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL")
_ID = "abcdefghijklmnopqrstuvwxyz0123456789"
_NAME = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
_COUNT = st.integers(0, 1_000_000)

# Every request counts a prompt token at least, so never every count zero (:func:`harness.rules.blocks.no_usage`).
usages = st.one_of(st.none(), st.fixed_dictionaries(
    {"promptTokenCount": st.integers(1, 1_000_000), "candidatesTokenCount": _COUNT, "totalTokenCount": _COUNT},
    optional={"thoughtsTokenCount": _COUNT, "cachedContentTokenCount": _COUNT,
              "promptTokensDetails": st.lists(st.fixed_dictionaries(
                  {"modality": st.sampled_from(["TEXT", "IMAGE"]), "tokenCount": _COUNT}), max_size=2)}))


@st.composite
def _signed(draw, block: dict) -> dict:
    """``block`` with a ``thoughtSignature``, or without one."""
    if draw(st.booleans()):
        return {**block, "signature": draw(signatures)}
    return block


@st.composite
def calls(draw, count: int, with_ids: bool) -> list[dict]:
    """``count`` calls, with distinct ids or none (``""``), any of them signed."""
    ids = draw(st.lists(st.text(_ID, min_size=1, max_size=16), min_size=count, max_size=count, unique=True))
    return [draw(_signed({"type": "tool_call", "id": cid if with_ids else "",
                          "name": draw(st.text(_NAME, min_size=1, max_size=12)), "arguments": draw(arguments())}))
            for cid in ids]


_texts = st.builds(lambda t: {"type": "text", "text": t}, any_text).flatmap(_signed)
_thoughts = st.builds(lambda t, s: {"type": "reasoning", "text": t, "signature": s}, any_text,
                      st.just("") | signatures)


@st.composite
def turns(draw, max_calls: int = 12, max_others: int = 6) -> dict:
    """A neutral turn: every part kind in any order, 0 to ``max_calls`` calls, any finish reason."""
    others = draw(st.lists(st.one_of(_texts, _thoughts), max_size=max_others))
    called = draw(calls(draw(st.integers(0, max_calls)), with_ids=draw(st.booleans())))
    order = draw(st.permutations([0] * len(others) + [1] * len(called)))
    sources = [iter(others), iter(called)]
    return {"blocks": [next(sources[k]) for k in order], "stop_reason": draw(st.sampled_from(FINISH_REASONS)),
            "usage": draw(usages)}


@st.composite
def groupings(draw, count: int) -> tuple[int, ...]:
    """``count`` parts cut into chunks anywhere: several in one chunk, chunks with none."""
    cuts = sorted(draw(st.lists(st.integers(0, count), max_size=count + 2)))
    bounds = [0, *cuts, count]
    return tuple(b - a for a, b in zip(bounds, bounds[1:]))


@st.composite
def plans(draw, turn: dict) -> Plan:
    """How ``turn`` is streamed: chunks, running usage, the finish chunk, the candidates' keys and framing."""
    groups = draw(groupings(len(turn["blocks"])))
    finish_alone = draw(st.booleans())
    earlier = len(groups) if finish_alone else len(groups) - 1
    running: tuple = ()
    if turn["usage"] is not None and earlier:
        at = draw(st.lists(st.integers(0, earlier - 1), unique=True, max_size=3))
        running = tuple((k, draw(usages.filter(lambda u: u is not None))) for k in sorted(at))
    return Plan(groups=groups, running_usage=running, finish_alone=finish_alone,
                bare_candidates=draw(st.booleans()), signature_only=draw(st.booleans()), framing=draw(framings))


@st.composite
def streamed_turns(draw, max_calls: int = 12) -> tuple[dict, Plan]:
    """A turn and a plan that streams it."""
    turn = draw(turns(max_calls))
    return turn, draw(plans(turn))


def _calls(turn: object) -> list[dict]:
    found = turn.get("blocks") if isinstance(turn, dict) else None
    return [b for b in found if isinstance(b, dict) and b.get("type") == "tool_call"] if isinstance(found, list) else []


def _args(text: object) -> object:
    return text or "{}" if isinstance(text, str) else text


def _named(turn: object, want: list[dict] | None = None) -> object:
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


def comparable(got: object, sent: dict) -> tuple[object, dict]:
    """``(got, sent)`` as the shared block rules compare them: each call named by its id and its place among the calls.

    Gemini calls have no identity beyond their place (an ``id`` only on newer
    models), and their ``args`` are a JSON object: a decoded call's arguments
    that are the same JSON value as the streamed ones (``""`` is ``{}``) count
    as the same text.
    """
    return _named(got, _calls(sent)), _named(sent)
