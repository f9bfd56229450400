"""The toy format's writer of neutral turns, cut as a ``Cut`` says."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Cut:
    """Each block's value in ``pieces`` deltas (empty pieces allowed), blocks opened in ``order`` (None: in order)."""

    pieces: tuple[tuple[str, ...], ...] | None = None
    order: tuple[int, ...] | None = None


def _value(block: dict) -> str:
    return block["text"] if block["type"] == "text" else block["arguments"]


def events(turn: dict, cut: Cut = Cut()) -> list[dict]:
    blocks = turn["blocks"]
    pieces = cut.pieces or tuple((_value(b),) for b in blocks)
    found = []
    for index in cut.order or range(len(blocks)):
        block = blocks[index]
        start = {"type": "text"} if block["type"] == "text" else {"type": "tool_call", "id": block["id"],
                                                                  "name": block["name"]}
        found.append({"block": index, "start": start})
        found += [{"block": index, "delta": piece} for piece in pieces[index]]
    found.append({"stop": turn["stop_reason"], "usage": turn.get("usage")})
    return found


def turn_body(turn: dict, cut: Cut = Cut()) -> bytes:
    return b"".join(json.dumps(event).encode() + b"\n" for event in events(turn, cut))
