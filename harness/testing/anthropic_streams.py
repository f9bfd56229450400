"""Hypothesis strategies for Anthropic Messages streams: neutral turns and the plans that write them.

:func:`turns` draws every block type in any order (unicode and empty text,
0 to 12 calls, zero-argument calls, opaque values with any character a JSON
string carries on the wire, every ``stop_reason``), :func:`plans` how one turn
is streamed. By default a plan makes only the cuts Anthropic itself makes:
text, thinking and ``partial_json`` cut into pieces anywhere, empty pieces
included; each signature whole in one ``signature_delta``; pings anywhere;
named events; usage split as Anthropic splits it (``message_start`` with
``input_tokens`` and ``output_tokens`` and any other key, ``message_delta``
with ``output_tokens``, every changed key and any unchanged one again); the
SSE framings of :data:`framings`. The shapes of relays are asked for by name:
``split_signatures`` (a signature cut over several deltas), ``named=False``
(the data-only form), ``interleaved`` (the deltas of several open blocks
mixed), ``relay_usage`` (no usage at all, or any key missing from either
event). :func:`cut_arguments` draws what
fine-grained tool streaming may leave of a call's JSON.
:func:`harness.wire.anthropic_events.turn_body` writes a turn and its plan as
a body.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from harness.wire.anthropic_events import STREAMED, Plan, in_order
from harness.wire.sse import Framing

STOP_REASONS = ("end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal")
_ID = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_NAME = _ID + "_-"

# Any Unicode scalar value (the wire is UTF-8 JSON: control characters travel escaped, surrogates not at all).
any_text = st.text(max_size=12)
# Signatures and redacted data are base64 in practice; an opaque value is opaque, so any character is drawn too.
opaque = st.one_of(st.text(_ID + "+/=", max_size=40), st.text(max_size=16))
_scalar = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                    any_text)
_json_object = st.dictionaries(st.text(max_size=6), st.recursive(
    _scalar, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=5), max_size=3)
# A call's arguments as the model streams them: a JSON object's text, or "" for a call without arguments.
arguments = st.one_of(st.just(""), st.builds(json.dumps, _json_object),
                      st.builds(lambda v: json.dumps(v, ensure_ascii=False), _json_object))


@st.composite
def cut_arguments(draw) -> str:
    """What fine-grained tool streaming may leave of a call's JSON: a strict prefix of one, or any text."""
    whole = draw(st.builds(json.dumps, _json_object).filter(lambda text: len(text) > 2))
    return draw(st.one_of(st.integers(1, len(whole) - 1).map(lambda n: whole[:n]), st.text(min_size=1, max_size=12)))

text_blocks = st.builds(lambda t: {"type": "text", "text": t}, any_text)
reasoning_blocks = st.builds(lambda t, s: {"type": "reasoning", "text": t, "signature": s}, any_text, opaque)
redacted_blocks = st.builds(lambda d: {"type": "redacted_reasoning", "data": d}, opaque)

# The usage of a turn as Anthropic streams it: input and output counts always (a finished turn counts an output token
# at least, so never every count zero: :func:`harness.rules.blocks.no_usage`), cache and server-tool counts when they
# apply.
usages = st.fixed_dictionaries(
    {"input_tokens": st.integers(0, 200_000), "output_tokens": st.integers(1, 64_000)},
    optional={"cache_creation_input_tokens": st.integers(0, 10_000),
              "cache_read_input_tokens": st.integers(0, 10_000),
              "server_tool_use": st.fixed_dictionaries({"web_search_requests": st.integers(0, 5)})})
# Relays and translators also stream a turn without any usage.
relay_usages = st.one_of(st.none(), usages)
# The keys Anthropic's message_start always carries, and message_delta's one.
START_KEYS = ("input_tokens", "output_tokens")
DELTA_KEY = "output_tokens"

framings = st.builds(Framing, space=st.booleans(), line_end=st.sampled_from(["\n", "\r\n", "\r"]),
                     keep_alive=st.booleans())


@st.composite
def calls(draw, count: int, args: st.SearchStrategy[str] = arguments) -> list[dict]:
    """``count`` calls with distinct ``toolu_`` ids, their raw arguments drawn from ``args``."""
    ids = draw(st.lists(st.text(_ID, min_size=1, max_size=24), min_size=count, max_size=count, unique=True))
    return [{"type": "tool_call", "id": f"toolu_{cid}", "name": draw(st.text(_NAME, min_size=1, max_size=12)),
             "arguments": draw(args)} for cid in ids]


@st.composite
def turns(draw, max_calls: int = 12, max_others: int = 6, min_calls: int = 0,
          args: st.SearchStrategy[str] = arguments, usage: st.SearchStrategy[dict | None] = usages) -> dict:
    """A neutral turn: every block type, in any order, ``min_calls`` to ``max_calls`` calls."""
    others = draw(st.lists(st.one_of(text_blocks, reasoning_blocks, redacted_blocks), max_size=max_others))
    called = draw(calls(draw(st.integers(min_calls, max_calls)), args))
    # A shuffled multiset of sources keeps each source's own order and mixes them anywhere.
    order = draw(st.permutations([0] * len(others) + [1] * len(called)))
    sources = [iter(others), iter(called)]
    return {"blocks": [next(sources[k]) for k in order], "stop_reason": draw(st.sampled_from(STOP_REASONS)),
            "usage": draw(usage)}


@st.composite
def pieces_of(draw, value: str, always: bool = False) -> list[str]:
    """``value`` cut at any characters, empty pieces included; ``""`` as no piece or empty ones (one at least if ``always``)."""
    cuts = sorted(draw(st.lists(st.integers(0, len(value)), max_size=4)))
    bounds = [0, *cuts, len(value)]
    pieces = [value[a:b] for a, b in zip(bounds, bounds[1:])]
    if not value:
        pieces = pieces[: draw(st.integers(1 if always else 0, len(pieces)))]
    return pieces


@st.composite
def block_pieces(draw, block: dict, split_signature: bool = False) -> tuple:
    """The deltas of one block, in the order Anthropic sends its values; a signature whole unless ``split_signature``."""
    return tuple((kind, piece) for kind, key in STREAMED[block["type"]]
                 for piece in (draw(pieces_of(block[key], always=kind == "arguments"))
                               if kind != "signature" or split_signature else [block[key]] if block[key] else []))


@st.composite
def interleavings(draw, pieces: tuple) -> tuple:
    """Block events of several open blocks mixed: each block's start, deltas and stop in order, the blocks' in any."""
    own = [[("start", i), *(("delta", i) for _ in p), ("stop", i)] for i, p in enumerate(pieces)]
    order = draw(st.permutations([i for i, steps in enumerate(own) for _ in steps]))
    taken = [0] * len(own)
    steps = []
    for i in order:
        steps.append(own[i][taken[i]])
        taken[i] += 1
    return tuple(steps)


@st.composite
def start_usages(draw, usage: dict | None, relay: bool = False) -> dict | None:
    """What ``message_start`` carries of ``usage``: :data:`START_KEYS` (a relay: any) and any others.

    A count may be lower than the turn's, ``message_delta`` then updating it
    (its counts are cumulative, so never lower); an object is sent as it is.
    """
    if usage is None:
        return None
    always = [] if relay else [key for key in START_KEYS if key in usage]
    others = sorted(set(usage) - set(always))
    keys = always + (draw(st.lists(st.sampled_from(others), unique=True)) if others else [])
    return {key: draw(st.sampled_from(sorted({0, min(1, usage[key]), usage[key]})))
            if isinstance(usage[key], int) else usage[key] for key in keys}


@st.composite
def repeated_usages(draw, usage: dict | None, relay: bool = False) -> tuple[str, ...]:
    """The keys ``message_delta`` sends although unchanged: :data:`DELTA_KEY` always (a relay: not) and any others."""
    if not usage:
        return ()
    always = () if relay or DELTA_KEY not in usage else (DELTA_KEY,)
    return always + tuple(draw(st.lists(st.sampled_from(sorted(set(usage) - set(always))), unique=True)))


@st.composite
def plans(draw, turn: dict, interleaved: bool = False, split_signatures: bool = False, named: bool = True,
          relay_usage: bool = False) -> Plan:
    """How ``turn`` is streamed: pieces, pings, usage split and framing, with the relay shapes asked for."""
    pieces = tuple(draw(block_pieces(b, split_signatures)) for b in turn["blocks"])
    steps = draw(interleavings(pieces)) if interleaved else in_order(pieces)
    events = len(steps) + 3
    usage = turn["usage"]
    return Plan(pieces=pieces, steps=steps, start_usage=draw(start_usages(usage, relay_usage)),
                repeated_usage=draw(repeated_usages(usage, relay_usage)),
                pings=tuple(draw(st.lists(st.integers(0, events), max_size=3))), named=named,
                framing=draw(framings))


@st.composite
def streamed_turns(draw, max_calls: int = 12, interleaved: bool = False, split_signatures: bool = False,
                   named: bool = True, turn: st.SearchStrategy[dict] | None = None,
                   relay_usage: bool = False) -> tuple[dict, Plan]:
    """A turn (from ``turn``, default :func:`turns`) and a plan that streams it, with the relay shapes asked for."""
    default = turns(max_calls, usage=relay_usages if relay_usage else usages)
    drawn = draw(default if turn is None else turn)
    return drawn, draw(plans(drawn, interleaved, split_signatures, named, relay_usage))
