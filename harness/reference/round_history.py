"""Persisted rounds and the history rendered from them, for every format built on the neutral turn.

A round is one model call as it is written to disk: the user input that
started it (on a turn's first round), the blocks the provider sent, exactly
as received, and the tool results it led to. Anthropic Messages, OpenAI
Responses and Gemini persist the same rounds; what differs is the wire a
history is written in, a :class:`HistoryWire` each format's ``history``
module gives. Rendering puts each round's blocks back in their order and its
results, first, into the user content that follows.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class HistoryWire:
    """How one format writes a history: its serializer, how a message joins the history, and its request."""

    serialize: Callable[[dict], Any]
    # Puts one serialized message at the end of a history (merging what the format merges).
    add: Callable[[list, Any], None]
    # The streamed request body for a history and the tools' schemas (harness.testing.ScriptedTool.schema).
    request: Callable[[list, list[dict]], dict]
    # Whether a wire message opens an exchange: a question, not only tool results (trimming keeps exchanges whole).
    starts_exchange: Callable[[Any], bool]


def round_event(user_input: str | None, turn: dict, tool_results: list[dict], timestamp: float) -> dict:
    return {"input": user_input, "blocks": copy.deepcopy(turn.get("blocks") or []),
            "tool_results": [dict(r) for r in tool_results], "timestamp": timestamp}


def render_history(events: list[dict], wire: HistoryWire) -> list:
    history: list = []
    pending_results: list[dict] = []
    for event in events:
        wire.add(history, wire.serialize({"role": "user", "content": event.get("input") or "",
                                          "tool_results": pending_results}))
        wire.add(history, wire.serialize({"role": "assistant", "blocks": event.get("blocks") or []}))
        pending_results = list(event.get("tool_results") or ())
    if pending_results:
        wire.add(history, wire.serialize({"role": "user", "content": "", "tool_results": pending_results}))
    return history


def merging_users(key: str) -> Callable[[list, dict], None]:
    """``add`` for a format of role-tagged messages whose ``key`` list holds the blocks (or parts).

    A user message with nothing in it is left out, and one right after another
    user message joins it (results, then the next question), since the
    formats want one user content between two model turns.
    """

    def add(history: list, message: dict) -> None:
        if message.get("role") != "user":
            history.append(message)
        elif not message[key]:
            return
        elif history and history[-1].get("role") == "user":
            history[-1] = {**history[-1], key: [*history[-1][key], *message[key]]}
        else:
            history.append(message)

    return add


def extending(history: list, items: list) -> None:
    """``add`` for a format whose history is one flat list of items (OpenAI Responses ``input``)."""
    history.extend(items)
