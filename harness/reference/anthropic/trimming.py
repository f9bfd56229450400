"""History trimming for Messages: whole exchanges dropped, oldest first, the latest kept.

An exchange starts at a user message that is not only tool results, so an
assistant message's tool uses always leave together with the results that
answer them, and the history still starts with a user's message. Kept messages
are untouched: their thinking blocks and signatures must stay as they were.
The size is counted, and the threshold applied, as in the chat reference.
"""

from __future__ import annotations

from harness.reference.trimming import THRESHOLD, history_size, overflow_ratio


def _starts_exchange(message: dict) -> bool:
    if message.get("role") != "user":
        return False
    content = message.get("content")
    return not isinstance(content, list) or any(block.get("type") != "tool_result" for block in content)


def trim_history(messages: list[dict], budget: int) -> list[dict]:
    if overflow_ratio(messages, budget) < THRESHOLD:
        return list(messages)
    exchanges: list[list[dict]] = []
    for message in messages:
        if not exchanges or _starts_exchange(message):
            exchanges.append([message])
        else:
            exchanges[-1].append(message)
    size = history_size(messages)
    while len(exchanges) > 1 and size > budget:
        size -= history_size(exchanges.pop(0))
    return [message for exchange in exchanges for message in exchange]
