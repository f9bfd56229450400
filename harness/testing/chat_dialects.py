"""Strategies for the reasoning dialects of chat completions: whole turns, and the streams that carry them.

A turn is the neutral response a dialect's endpoint means
(:mod:`harness.rules.chat_dialects`): OpenRouter's ``reasoning_details``
entries (text with a signature, a summary, an encrypted blob), or tool calls
carrying Google's ``extra_content`` signature. Its stream sends every entry in
pieces sharing the entry's ``index`` (its text cut anywhere, ``type``,
``format`` and ``index`` repeated on each piece as the gateway does, the
signature on the last, alone or with text, ``null`` where a piece does not
know a field); an entry without an ``index`` comes whole, in one piece of
its own; pieces of several entries in one chunk or one per
chunk, then each call in fragments with its ``extra_content`` on the first.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from harness.rules.chat_dialects import CALL, Dialect

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
# Opaque values as providers make them: base64 with its padding, long enough to be cut.
opaque = st.builds(lambda body, pad: body + pad, st.text(_B64, min_size=8, max_size=48), st.sampled_from(["", "=", "=="]))
_words = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=40)
_FORMATS = ("anthropic-claude-v1", "openai-responses-v1", "google-gemini-v1", "unknown")


@st.composite
def _entry(draw, index: int) -> dict:
    kind = draw(st.sampled_from(["reasoning.text", "reasoning.summary", "reasoning.encrypted"]))
    entry = {"type": kind, "format": draw(st.sampled_from(_FORMATS))}
    if draw(st.booleans()):  # an entry sent whole may leave its index out: it is one entry of its own
        entry["index"] = index
    if draw(st.booleans()):
        entry["id"] = f"rs_{draw(st.text(_B64[:62], min_size=6, max_size=12))}"
    if kind == "reasoning.text":
        entry["text"] = draw(_words)
        if draw(st.booleans()):
            entry["signature"] = draw(opaque)
    elif kind == "reasoning.summary":
        entry["summary"] = draw(_words)
    else:
        entry["data"] = draw(opaque)
    return entry


def _signature(value: str) -> dict:
    return {"google": {"thought_signature": value}}


@st.composite
def dialect_turns(draw, dialect: Dialect) -> dict:
    """A neutral turn of ``dialect``'s endpoint: one to three calls, and its opaque values."""
    size = draw(st.integers(1, 3))
    calls = [{"id": f"call_{n}_{draw(st.text(_B64[:62], min_size=4, max_size=8))}", "name": "read_file",
              "arguments": json.dumps({"path": f"{n}.txt"})} for n in range(size)]
    turn: dict = {"content": draw(st.sampled_from(["", "Reading them."])), "tool_calls": calls,
                  "finish_reason": "tool_calls"}
    if dialect.place == CALL:
        # The first call of a step always carries one; parallel calls after it may.
        signed = [True, *draw(st.lists(st.booleans(), min_size=size - 1, max_size=size - 1))]
        for call, has in zip(calls, signed):
            if has:
                call[dialect.field] = _signature(draw(opaque))
    else:
        turn[dialect.field] = [draw(_entry(n)) for n in range(draw(st.integers(1, 3)))]
    return turn


def _cut(draw, text: str) -> list[str]:
    points = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=3))) if len(text) > 1 else []
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)])]


def _pieces(draw, entry: dict) -> list[dict]:
    """One entry as the gateway streams it: its text in pieces, the fields that name it on each."""
    growing = next((k for k in ("text", "summary", "data") if k in entry), None)
    whole = "index" not in entry  # only the index joins pieces: without one, the entry is a piece
    parts = [entry[growing]] if whole else _cut(draw, entry[growing])
    naming = {k: entry[k] for k in ("type", "index", "format") if k in entry}
    pieces = [{**naming, growing: part} for part in parts]
    if "signature" in entry and not whole and draw(st.booleans()):
        pieces.append({**naming, growing: ""})  # the signature alone, on a piece that adds no text
    if draw(st.booleans()):  # a field the entry has, said null on the pieces that do not bring it
        for piece in pieces[:-1] if "signature" in entry else ():
            piece["signature"] = None
        for piece in pieces[1:] if "id" in entry else ():
            piece["id"] = None
    if "id" in entry:
        pieces[0]["id"] = entry["id"]
    if "signature" in entry:
        pieces[-1]["signature"] = entry["signature"]
    return pieces


@st.composite
def dialect_streams(draw, turn: dict, dialect: Dialect) -> bytes:
    """The SSE body of ``turn`` as ``dialect``'s endpoint streams it."""
    deltas: list[dict] = [{"role": "assistant", "content": ""}]
    pieces = [p for entry in turn.get(dialect.field) or () if dialect.place != CALL for p in _pieces(draw, entry)]
    while pieces:
        take = draw(st.integers(1, min(2, len(pieces))))
        deltas.append({"reasoning_details": pieces[:take]})
        pieces = pieces[take:]
    if turn["content"]:
        deltas.append({"content": turn["content"]})
    for index, call in enumerate(turn["tool_calls"]):
        for n, part in enumerate(_cut(draw, call["arguments"])):
            fragment: dict = {"index": index, "function": {"arguments": part}}
            if n == 0:
                fragment.update(id=call["id"], type="function")
                fragment["function"]["name"] = call["name"]
                if dialect.field in call:
                    fragment[dialect.field] = call[dialect.field]
            deltas.append({"tool_calls": [fragment]})
    chunks = [{"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": d}]}
              for d in deltas]
    chunks.append({"id": "chatcmpl-1", "object": "chat.completion.chunk",
                   "choices": [{"index": 0, "delta": {}, "finish_reason": turn["finish_reason"]}]})
    return b"".join(f"data: {json.dumps(c, ensure_ascii=False)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"
