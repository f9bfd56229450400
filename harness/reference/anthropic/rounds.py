"""Persisted rounds and the history rendered from them: what the next request replays.

A round is one model call as it is written to disk: the user input that
started it (on a turn's first round), the blocks the provider sent, exactly
as received, and the tool results it led to. Rendering puts each round's
blocks back in their order and its results, first, into the next user message;
adjacent user content goes into one message, since roles must alternate.
"""

from __future__ import annotations

import copy

from harness.reference.anthropic.messages import serialize_message


def round_event(user_input: str | None, turn: dict, tool_results: list[dict], timestamp: float) -> dict:
    return {"input": user_input, "blocks": copy.deepcopy(turn.get("blocks") or []),
            "tool_results": [dict(r) for r in tool_results], "timestamp": timestamp}


def render_history(events: list[dict]) -> list[dict]:
    messages: list[dict] = []
    pending_results: list[dict] = []
    for event in events:
        user = serialize_message({"role": "user", "content": event.get("input") or "", "tool_results": pending_results})
        _append_user(messages, user)
        messages.append(serialize_message({"role": "assistant", "blocks": event.get("blocks") or []}))
        pending_results = list(event.get("tool_results") or ())
    if pending_results:
        _append_user(messages, serialize_message({"role": "user", "content": "", "tool_results": pending_results}))
    return messages


def _append_user(messages: list[dict], user: dict) -> None:
    if not user["content"]:
        return
    if messages and messages[-1]["role"] == "user":
        messages[-1]["content"].extend(user["content"])
    else:
        messages.append(user)
