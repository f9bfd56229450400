"""The body to send: extended thinking switched on or off by the asked effort.

Anthropic's own rules decide the shape: an enabled budget is at least 1024
tokens and below ``max_tokens``; with thinking off the final assistant message
may hold no thinking (earlier ones it ignores, so they stay as they were).
"""

from __future__ import annotations

import copy

# The thinking budget per effort level, in tokens (Anthropic's minimum is 1024).
BUDGETS = {"low": 1024, "medium": 4096, "high": 16000, "max": 32000}
_REASONING_TYPES = ("thinking", "redacted_thinking")


def transform_request(body: dict, options: dict) -> dict:
    sent = copy.deepcopy(body)
    effort = options.get("effort")
    if effort is None:
        return sent
    if effort == "off":
        sent.pop("thinking", None)
        _strip_final_thinking(sent.get("messages") or [])
        return sent
    if effort not in BUDGETS:
        raise ValueError(f"effort {effort!r}: expected one of off, {', '.join(BUDGETS)}")
    budget = BUDGETS[effort]
    sent["thinking"] = {"type": "enabled", "budget_tokens": budget}
    if (sent.get("max_tokens") or 0) <= budget:
        sent["max_tokens"] = budget * 2
    return sent


def _strip_final_thinking(messages: list[dict]) -> None:
    assistants = [m for m in messages if m.get("role") == "assistant"]
    if not assistants or not isinstance(assistants[-1].get("content"), list):
        return
    final = assistants[-1]
    final["content"] = [block for block in final["content"] if block.get("type") not in _REASONING_TYPES]
