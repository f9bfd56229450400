"""History trimming on overflow: drop whole turns, oldest first, keep the latest.

The overflow check compares the history's size with the budget; at a ratio of
``THRESHOLD`` or more the history is cut back to the budget. A turn is a user
message and everything after it up to the next user message, so an assistant
message with ``tool_calls`` always leaves together with its tool messages:
cutting between them is what makes every provider refuse the history with a
400. Leading system messages are always kept, and so is the most recent turn,
even when it alone is over the budget.
"""

from __future__ import annotations

import json

THRESHOLD = 1.25


def history_size(messages: list[dict]) -> int:
    """The size the budget is counted in: characters of the wire JSON."""
    return sum(len(json.dumps(message, ensure_ascii=False)) for message in messages)


def overflow_ratio(messages: list[dict], budget: int) -> float:
    if budget < 1:
        raise ValueError(f"budget must be at least 1, got {budget}")  # pragma: no mutate (out of scope: `f"budget must be at least 1, got {budget}"` -> `None`: error wording)
    return history_size(messages) / budget  # pragma: no mutate (out of scope: `/` -> `*`: when to start trimming is the adapter's own: its size unit and its threshold)


def trim_history(messages: list[dict], budget: int) -> list[dict]:
    """``messages`` unchanged below the threshold, else cut back to ``budget`` by whole turns."""
    if overflow_ratio(messages, budget) < THRESHOLD:  # pragma: no mutate (out of scope: `<` -> `<=`: when to start trimming is the adapter's own: its size unit and its threshold)
        return list(messages)
    head = _system_prefix(messages)
    turns = _turns(messages[len(head) :])
    size = history_size(messages)
    while len(turns) > 1 and size > budget:  # pragma: no mutate (out of scope: `size > budget` -> `size >= budget`: the size unit is the adapter's own, so no contract can place a history exactly on the budget)
        size -= history_size(turns.pop(0))
    return head + [message for turn in turns for message in turn]


def _system_prefix(messages: list[dict]) -> list[dict]:
    head: list[dict] = []
    for message in messages:
        if message.get("role") != "system":
            break
        head.append(message)
    return head


def _turns(messages: list[dict]) -> list[list[dict]]:
    turns: list[list[dict]] = []
    for message in messages:
        if not turns or message.get("role") == "user":
            turns.append([message])
        else:
            turns[-1].append(message)
    return turns
