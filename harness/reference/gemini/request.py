"""The body to send: thinking set by the asked effort, inside ``generationConfig`` where Gemini reads it.

``thinkingConfig`` is a field of ``generationConfig``; at the top level of
the body Gemini refuses it as an unknown field. ``"off"`` is a budget of 0;
any other level a budget with thought summaries included, so the stream
carries the thought parts and their signatures.
"""

from __future__ import annotations

import copy

# The thinking budget per effort level, in tokens.
BUDGETS = {"off": 0, "low": 1024, "medium": 8192, "high": 24576, "max": 32768}


def transform_request(body: dict, options: dict) -> dict:
    sent = copy.deepcopy(body)
    effort = options.get("effort")
    if effort is None:
        return sent
    if effort not in BUDGETS:
        raise ValueError(f"effort {effort!r}: expected one of {', '.join(BUDGETS)}")
    config = sent.setdefault("generationConfig", {})
    thinking = {"thinkingBudget": BUDGETS[effort]}
    if effort != "off":
        thinking["includeThoughts"] = True
    config["thinkingConfig"] = thinking
    return sent
