"""Hypothesis strategies for chat-completions streams of neutral turns, and what chat counts as the same turn.

:func:`turns` draws the turns chat carries (:mod:`harness.wire.chat_turn`:
reasoning, text and 0 to 8 calls, any unicode text), :func:`cuts` how one is
streamed: each value cut at any character (empty pieces included), the
pieces of every value interleaved in any order (calls opened in any order;
text, reasoning and fragments of several calls, or several of one call, in
one delta), ``null`` for a text key a delta does not carry, any envelope
(:data:`harness.testing.streams.envelopes`) and any SSE framing, with or
without ``[DONE]``. Reasoning (``reasoning_content``) is drawn only when asked
for: it is a provider's extension. :func:`as_sent` reads a decoded turn in the sent turn's
spelling wherever the chat format counts two values the same.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import strategies as st

from harness.rules.pairing import same_arguments
from harness.testing.anthropic_streams import any_text, arguments, framings, pieces_of
from harness.testing.streams import envelopes
from harness.wire.chat_turn import CALL, TEXT_KEYS, Cut, calls_of, text_of

STANDARD = ("prompt_tokens", "completion_tokens", "total_tokens")
_ID = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

# Text as models stream it, and text that looks like the framing around it.
texts = st.one_of(any_text, st.sampled_from([" ", "\n\n", "[DONE]", "data: [DONE]", ": ping", "思考 🧠"])).filter(bool)
# A usage as providers send it: every request counts a prompt token at least, so never every count zero
# (:func:`harness.rules.blocks.no_usage`).
usages = st.one_of(st.none(), st.builds(
    lambda prompt, completion: {"prompt_tokens": prompt, "completion_tokens": completion,
                                "total_tokens": prompt + completion},
    st.integers(1, 200_000), st.integers(0, 64_000)))
chat_framings = st.tuples(framings, st.booleans()).map(lambda pair: replace(pair[0], done=pair[1]))


@st.composite
def turns(draw, max_calls: int = 8, reasoning: bool = False) -> dict:
    """A turn chat carries: maybe text, 0 to ``max_calls`` calls with distinct ids and JSON arguments; maybe reasoning
    if ``reasoning`` (``reasoning_content`` is DeepSeek's extension, not the format's)."""
    blocks: list[dict] = []
    if reasoning and draw(st.booleans()):
        blocks.append({"type": "reasoning", "text": draw(texts), "signature": ""})
    if draw(st.booleans()):
        blocks.append({"type": "text", "text": draw(texts)})
    ids = draw(st.lists(st.text(_ID, min_size=1, max_size=24), max_size=max_calls, unique=True))
    blocks += [{"type": "tool_call", "id": f"call_{cid}", "name": draw(st.text(_ID + "_-", min_size=1, max_size=12)),
                "arguments": draw(arguments.filter(bool))} for cid in ids]
    # The finish reason the format sends for what the turn holds (libraries rewrite "stop" beside calls).
    finish = ("tool_calls", "length") if ids else ("stop", "length", "content_filter")
    return {"blocks": blocks, "stop_reason": draw(st.sampled_from(finish)), "usage": draw(usages)}


@st.composite
def cuts(draw, turn: dict) -> Cut:
    """How ``turn`` is streamed: pieces of every value in any interleaving, grouped into deltas, nulls, envelope, framing."""
    sources = [[(kind, 0, piece) for piece in draw(pieces_of(text_of(turn, kind)))]
               for kind in TEXT_KEYS if text_of(turn, kind)]
    sources += [[(CALL, k, piece) for piece in draw(pieces_of(call["arguments"], always=True))]
                for k, call in enumerate(calls_of(turn))]
    # A shuffled multiset of sources keeps each source's own order and mixes them anywhere.
    order = draw(st.permutations([s for s, own in enumerate(sources) for _ in own]))
    taken = [0] * len(sources)
    deltas: list[list] = []
    for s in order:
        piece = sources[s][taken[s]]
        taken[s] += 1
        clash = bool(deltas) and piece[0] != CALL and any(p[0] == piece[0] for p in deltas[-1])
        if deltas and not clash and draw(st.booleans()):
            deltas[-1].append(piece)
        else:
            deltas.append([piece])
    for delta in deltas:
        for kind in TEXT_KEYS:
            if all(p[0] != kind for p in delta) and draw(st.booleans()):
                delta.append((kind, 0, None))
    return Cut(deltas=tuple(tuple(d) for d in deltas), envelope=draw(envelopes), framing=draw(chat_framings))


@st.composite
def streamed_turns(draw, max_calls: int = 8, reasoning: bool = False) -> tuple[dict, Cut]:
    """A turn chat carries (with reasoning if ``reasoning``) and a cut that streams it."""
    turn = draw(turns(max_calls, reasoning))
    return turn, draw(cuts(turn))


def counts_kept(usage: object, sent: dict) -> bool:
    """The three standard counts of ``sent`` are in ``usage``; a total left out is prompt plus completion."""
    if not isinstance(usage, dict):
        return False
    total = usage.get("total_tokens", sent["prompt_tokens"] + sent["completion_tokens"])
    return all(usage.get(key, "<absent>") == sent[key] for key in STANDARD[:2]) and total == sent["total_tokens"]


def as_sent(got: object, sent: dict) -> object:
    """``got`` (a decoded turn) with each value the chat format counts the same as ``sent``'s spelled as ``sent`` has it.

    A call's arguments are a JSON value (a client may re-serialize them:
    :func:`harness.rules.pairing.same_arguments`); a usage holds the standard
    counts (a client may add keys, or leave out a total it can derive); a
    stream without a usage chunk says nothing of usage (a client may count
    its own). Anything else, and anything that differs, is left as it came.
    """
    if not isinstance(got, dict) or not isinstance(got.get("blocks"), list):
        return got
    sent_arguments = {call["id"]: call["arguments"] for call in calls_of(sent)}
    blocks = []
    for block in got["blocks"]:
        if isinstance(block, dict) and block.get("type") == "tool_call" and block.get("id") in sent_arguments \
                and same_arguments(block.get("arguments"), sent_arguments[block.get("id")]):
            block = {**block, "arguments": sent_arguments[block["id"]]}
        blocks.append(block)
    usage = got.get("usage")
    if sent.get("usage") is None or counts_kept(usage, sent["usage"]):
        usage = sent.get("usage")
    return {**got, "blocks": blocks, "usage": usage}
