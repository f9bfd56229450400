"""The body to send: thinking set by the asked effort, inside ``generationConfig`` where Gemini reads it.

``thinkingConfig`` is a field of ``generationConfig``; at the top level of
the body Gemini refuses it as an unknown field. ``"off"`` is a budget of 0;
any other level a budget with thought summaries included, so the stream
carries the thought parts and their signatures. The model (``options["model"]``:
Gemini names it in the URL, not the body) bounds the budget: each 2.5 model
takes its own range, and the Pro model cannot turn thinking off, so "off"
is its smallest budget there.
"""

from __future__ import annotations

import copy

# The thinking budget per effort level, in tokens.
BUDGETS = {"off": 0, "low": 1024, "medium": 8192, "high": 24576, "max": 32768}
# Model prefix -> (smallest budget, largest budget, whether 0 turns thinking off); most specific first.
_RANGES = (("gemini-2.5-pro", 128, 32768, False), ("gemini-2.5-flash-lite", 512, 24576, True),
           ("gemini-2.5-flash", 1, 24576, True))


def transform_request(body: dict, options: dict) -> dict:
    sent = copy.deepcopy(body)
    effort = options.get("effort")
    if effort is None:
        return sent
    if effort not in BUDGETS:
        raise ValueError(f"effort {effort!r}: expected one of {', '.join(BUDGETS)}")
    config = sent.setdefault("generationConfig", {})
    thinking = {"thinkingBudget": _bounded(BUDGETS[effort], str(options.get("model") or ""))}
    if thinking["thinkingBudget"] != 0:
        thinking["includeThoughts"] = True
    config["thinkingConfig"] = thinking
    return sent


def _bounded(budget: int, model: str) -> int:
    """``budget`` within the range of ``model`` (a model of no known range: as it is)."""
    for prefix, low, high, can_disable in _RANGES:
        if model.rpartition("/")[2].startswith(prefix):
            return budget if budget == 0 and can_disable else min(max(budget, low), high)
    return budget
