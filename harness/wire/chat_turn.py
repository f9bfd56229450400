"""The chat-completions codec of the neutral turn: a turn to the chat SSE body that streams it, and a parsed response back.

The neutral turn (``harness.adapter``, the ``anthropic`` section: ``{"blocks",
"stop_reason", "usage"}``) is the model the rules every format shares are
stated over (``harness.rules.blocks``). Chat carries a part of it: its text
and its reasoning are each one stream of pieces, and its calls are keyed by
their ``index``, so a turn chat carries has its blocks in the order

- at most one ``reasoning`` block, non-empty text, no signature (``""``): the
  ``reasoning_content`` pieces;
- at most one ``text`` block, non-empty: the ``content`` pieces;
- any number of ``tool_call`` blocks with distinct ids: call ``k`` streams at
  ``index`` ``k``, its opening fragment carrying ``id``, ``type`` and
  ``function.name``;

and no ``redacted_reasoning`` block. ``stop_reason`` is chat's own
``finish_reason`` value (``"stop"``, ``"tool_calls"``, ...; no vocabulary is
translated) and ``usage`` the usage chunk's object. :func:`carried` says
why a turn is not one of these.

Writing (:func:`turn_body`): a :class:`Cut` says how the values are cut
into deltas; the chunks are :func:`harness.wire.chunks.completion_chunks`
(the finish chunk, the usage chunk) and the body :func:`harness.wire.sse.sse`.
Reading (:func:`decode`): a chat adapter's ``parse_stream`` result (the
``chat`` shape in ``harness.adapter``) to the turn, in the block order above;
``""`` text or reasoning is no block, any other value (``None`` included) is
one, so a wrong value is seen by the block rules instead of vanishing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.wire.chunks import ENVELOPE, Envelope, completion_chunks
from harness.wire.sse import PLAIN, Framing, sse

# The delta key each streamed text kind travels under, and the neutral block it fills.
TEXT_KEYS = {"reasoning": "reasoning_content", "text": "content"}
CALL = "call"

# One piece of a delta: (kind, call number, value). ``kind`` is a TEXT_KEYS key, or CALL for the
# ``arguments`` piece of call number ``k`` (its first piece rides on its opening fragment); the
# call number is 0 for text kinds. A ``None`` value on a text kind writes the key as ``null``.
Piece = tuple[str, int, "str | None"]


@dataclass(frozen=True)
class Cut:
    """How a turn is written: ``deltas`` (each a sequence of pieces; None: :func:`whole_deltas`), the envelope, the framing.

    A delta holds at most one piece of each text kind; call pieces in one
    delta become its ``tool_calls`` list in their order (fragments of several
    calls, or several of one call).
    """

    deltas: tuple[tuple[Piece, ...], ...] | None = None
    envelope: Envelope = ENVELOPE
    framing: Framing = field(default_factory=lambda: PLAIN)


WHOLE = Cut()


def carried(turn: dict) -> list[str]:
    """Why chat cannot carry ``turn`` (empty: it can)."""
    why = []
    types = [block["type"] for block in turn["blocks"]]
    rank = {"reasoning": 0, "text": 1, "tool_call": 2}
    if any(kind not in rank for kind in types):
        why.append(f"block types {sorted(set(types) - rank.keys())} have no chat form")
    elif [rank[kind] for kind in types] != sorted(rank[kind] for kind in types):
        why.append(f"blocks {types} are not reasoning, text, calls in that order")
    for kind in TEXT_KEYS:
        own = [block for block in turn["blocks"] if block["type"] == kind]
        if len(own) > 1:
            why.append(f"{len(own)} {kind} blocks: chat streams one")
        if any(not block["text"] for block in own):
            why.append(f"an empty {kind} block: chat reads no pieces as none")
    if any(block.get("signature") for block in turn["blocks"] if block["type"] == "reasoning"):
        why.append("a reasoning signature: chat has no field for one")
    ids = [block["id"] for block in calls_of(turn)]
    if len(set(ids)) != len(ids):
        why.append(f"call ids {ids} repeat: chat tells calls apart by id")
    return why


def calls_of(turn: dict) -> list[dict]:
    return [block for block in turn["blocks"] if block["type"] == "tool_call"]


def text_of(turn: dict, kind: str) -> str:
    """The text of the turn's ``kind`` block (``""`` without one)."""
    return "".join(block["text"] for block in turn["blocks"] if block["type"] == kind)


def whole_deltas(turn: dict) -> tuple[tuple[Piece, ...], ...]:
    """One delta per value: the reasoning, the text, then each call whole."""
    deltas = [((kind, 0, text_of(turn, kind)),) for kind in TEXT_KEYS if text_of(turn, kind)]
    deltas += [((CALL, k, call["arguments"]),) for k, call in enumerate(calls_of(turn))]
    return tuple(deltas)


def chunk_deltas(turn: dict, cut: Cut = WHOLE) -> list[dict]:
    """The ``delta`` objects that stream ``turn`` as ``cut`` says; ValueError if its pieces do not join to the turn."""
    why = carried(turn)
    if why:
        raise ValueError(f"chat cannot carry this turn: {'; '.join(why)}")
    calls = calls_of(turn)
    deltas = cut.deltas if cut.deltas is not None else whole_deltas(turn)
    opened = [False] * len(calls)
    joined = {kind: "" for kind in TEXT_KEYS}
    arguments = [""] * len(calls)
    written = []
    for pieces in deltas:
        delta: dict = {}
        for kind, k, value in pieces:
            if kind == CALL:
                fragment = {"index": k, "function": {"arguments": value}}
                if not opened[k]:
                    fragment = {"index": k, "id": calls[k]["id"], "type": "function",
                                "function": {"name": calls[k]["name"], "arguments": value}}
                    opened[k] = True
                delta.setdefault("tool_calls", []).append(fragment)
                arguments[k] += value
                continue
            if TEXT_KEYS[kind] in delta:
                raise ValueError(f"a delta holds two {kind} pieces: {pieces}")
            delta[TEXT_KEYS[kind]] = value
            joined[kind] += value or ""
        written.append(delta)
    for kind in TEXT_KEYS:
        if joined[kind] != text_of(turn, kind):
            raise ValueError(f"the cut's {kind} pieces join to {joined[kind]!r}, the turn's is {text_of(turn, kind)!r}")
    if not all(opened) or arguments != [call["arguments"] for call in calls]:
        raise ValueError(f"the cut opens calls {opened} with arguments {arguments}; the turn's calls are {calls}")
    return written


def turn_chunks(turn: dict, cut: Cut = WHOLE) -> list[dict]:
    """The chunks of ``turn``: one per delta (the first with the role), the finish chunk, the usage chunk."""
    return completion_chunks(chunk_deltas(turn, cut), turn.get("stop_reason"), envelope=cut.envelope,
                             usage=turn.get("usage"))


def turn_body(turn: dict, cut: Cut = WHOLE) -> bytes:
    """The SSE body that streams ``turn`` as ``cut`` says."""
    return sse(turn_chunks(turn, cut), cut.framing)


def decode(parsed: object) -> object:
    """A chat ``parse_stream`` result as the neutral turn; what is not a dict is returned as it is, for the rules to show."""
    if not isinstance(parsed, dict):
        return parsed
    blocks: list = []
    for kind, key in (("reasoning", "reasoning"), ("text", "content")):
        value = parsed.get(key)
        if value != "":
            blocks.append({"type": kind, "text": value, "signature": ""} if kind == "reasoning"
                          else {"type": kind, "text": value})
    calls = parsed.get("tool_calls")
    for call in calls if isinstance(calls, list) else [calls]:
        blocks.append({"type": "tool_call", "id": call.get("id"), "name": call.get("name"),
                       "arguments": call.get("arguments")} if isinstance(call, dict) else call)
    return {"blocks": blocks, "stop_reason": parsed.get("finish_reason"), "usage": parsed.get("usage")}
