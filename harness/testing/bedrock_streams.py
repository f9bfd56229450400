"""Hypothesis strategies for Bedrock ConverseStream bodies: neutral turns and the plans that write them.

:func:`turns` draws every block Converse streams in any order (text,
reasoning signed or not, redacted reasoning as any bytes, tool calls with
ids of Bedrock's pattern and arguments as any JSON object or none), unicode
and empty text, 0 to 8 calls, every stop reason, usage or none (written as
counting nothing). :func:`plans` draws how: each value cut anywhere, the
blocks' deltas interleaved in any order (each keyed by its
``contentBlockIndex``).
:func:`harness.wire.bedrock_events.turn_body` writes the pair as a body.
"""

from __future__ import annotations

import base64

from hypothesis import strategies as st

from harness.testing.anthropic_history import arguments
from harness.testing.anthropic_streams import any_text, pieces_of
from harness.wire.bedrock_events import Plan

STOP_REASONS = ("end_turn", "tool_use", "max_tokens", "stop_sequence", "guardrail_intervened", "content_filtered",
                "model_context_window_exceeded")
_ID = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
_COUNT = st.integers(0, 1_000_000)

signatures = st.binary(min_size=1, max_size=64).map(lambda raw: base64.b64encode(raw).decode("ascii"))
redacted_data = st.binary(min_size=0, max_size=64).map(lambda raw: base64.b64encode(raw).decode("ascii"))


def _totalled(usage: dict) -> dict:
    """``usage`` with its ``totalTokens`` as Converse counts it: every input, cached or not, and the output."""
    return {**usage, "totalTokens": sum(v for k, v in usage.items() if k != "totalTokens")}


# A usage the service sends: at least one input token, the total its counts add up to (never a free number).
usages = st.one_of(st.none(), st.fixed_dictionaries(
    {"inputTokens": st.integers(1, 1_000_000), "outputTokens": _COUNT, "totalTokens": st.just(0)},
    optional={"cacheReadInputTokens": _COUNT, "cacheWriteInputTokens": _COUNT}).map(_totalled))

_texts = st.builds(lambda t: {"type": "text", "text": t}, any_text)
_reasoning = st.builds(lambda t, s: {"type": "reasoning", "text": t, "signature": s}, any_text,
                       st.just("") | signatures)
_redacted = st.builds(lambda d: {"type": "redacted_reasoning", "data": d}, redacted_data)


@st.composite
def calls(draw, count: int) -> list[dict]:
    ids = draw(st.lists(st.text(_ID, min_size=1, max_size=24), min_size=count, max_size=count, unique=True))
    return [{"type": "tool_call", "id": f"tooluse_{cid}", "name": draw(st.text(_ID, min_size=1, max_size=12)),
             "arguments": draw(arguments())} for cid in ids]


@st.composite
def turns(draw, max_calls: int = 8, max_others: int = 6) -> dict:
    """A neutral turn: every block kind in any order, 0 to ``max_calls`` calls, any stop reason and usage."""
    others = draw(st.lists(st.one_of(_texts, _reasoning, _redacted), max_size=max_others))
    called = draw(calls(draw(st.integers(0, max_calls))))
    order = draw(st.permutations([0] * len(others) + [1] * len(called)))
    sources = [iter(others), iter(called)]
    return {"blocks": [next(sources[k]) for k in order], "stop_reason": draw(st.sampled_from(STOP_REASONS)),
            "usage": draw(usages)}


def _deltas(block: dict, pieces: tuple[str, ...]) -> int:
    """How many delta events a block streams in (as bedrock_events writes it)."""
    if block["type"] == "redacted_reasoning":
        return 1
    return len(pieces) + (1 if block["type"] == "reasoning" and block.get("signature") else 0)


@st.composite
def plans(draw, turn: dict) -> Plan:
    """How ``turn`` is streamed: values cut anywhere, deltas of open blocks interleaved, blocks opened in order."""
    blocks = turn["blocks"]
    pieces = tuple(tuple(draw(pieces_of(b.get("arguments", b.get("text", "")), always=b["type"] != "tool_call")))
                   if b["type"] != "redacted_reasoning" else () for b in blocks)
    schedule: list[int] = []
    floor = 0  # where the block opened last had its first delta: the next block's deltas all come after it
    for k, block in enumerate(blocks):
        count = _deltas(block, pieces[k])
        if not count:
            continue
        spots = sorted(draw(st.lists(st.integers(floor, len(schedule)), min_size=count, max_size=count)))
        for offset, spot in enumerate(spots):
            schedule.insert(spot + offset, k)
        floor = spots[0] + 1
    return Plan(pieces=pieces, schedule=tuple(schedule))


@st.composite
def streamed_turns(draw, max_calls: int = 8) -> tuple[dict, Plan]:
    """A turn and a plan that streams it."""
    turn = draw(turns(max_calls))
    return turn, draw(plans(turn))


CACHE_COUNTS = ("cacheReadInputTokens", "cacheWriteInputTokens")


def comparable(got: object, sent: dict) -> tuple[object, dict]:
    """``(got, sent)`` as the shared block rules compare them: a cache count of 0 and one not sent count the same.

    Converse sends a cache count only where the prompt cache was asked for,
    and 0 where it read or wrote nothing: both say no token came from the
    cache, as :func:`harness.rules.blocks.no_usage` reads a usage of zeros as
    none (clients that hold an absent count as 0 tell apart every count the
    wire can). Every other count, and every count that is not 0, as it came.
    """
    usage, want = (got.get("usage") if isinstance(got, dict) else None), sent.get("usage")
    if not (isinstance(usage, dict) and isinstance(want, dict)):
        return got, sent

    def counted(value: dict) -> dict:
        return {k: v for k, v in value.items() if not (k in CACHE_COUNTS and v == 0)}

    return {**got, "usage": counted(usage)}, {**sent, "usage": counted(want)}
