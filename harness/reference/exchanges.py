"""History trimming by whole exchanges, oldest first, the latest kept: for every neutral-turn format.

An exchange starts at a user question (the format's ``starts_exchange``:
a user message that is not only tool results), so a call always leaves
together with the results that answer it, a reasoning item with the item it
preceded, and the history still starts with a user's message. Kept messages
are untouched: their opaque values must stay as they were. The size is
counted, and the threshold applied, as in the chat reference.
"""

from __future__ import annotations

from typing import Any, Callable

from harness.reference.trimming import THRESHOLD, history_size, overflow_ratio


def trim_history(messages: list, budget: int, starts_exchange: Callable[[Any], bool]) -> list:
    if overflow_ratio(messages, budget) < THRESHOLD:
        return list(messages)
    exchanges: list[list] = []
    for message in messages:
        if not exchanges or starts_exchange(message):
            exchanges.append([message])
        else:
            exchanges[-1].append(message)
    size = history_size(messages)
    while len(exchanges) > 1 and size > budget:
        size -= history_size(exchanges.pop(0))
    return [message for exchange in exchanges for message in exchange]
