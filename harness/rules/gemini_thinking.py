"""Gemini's ``thinkingBudget``, judged per model row (:mod:`harness.rules.models`).

Each Gemini 2.5 model takes budgets in its own range, ``-1`` (dynamic) on
all of them, and ``0`` (off) where the range allows thinking to be turned
off; the Pro model always thinks. A budget outside the range is refused
with the budget in the text. A ``thinkingLevel`` is the Gemini 3 form, not
judged here.
"""

from __future__ import annotations

from harness.rules.models import GEMINI_ALWAYS_THINKS, GEMINI_BUDGET_INVALID, ModelRow

DYNAMIC = -1


def budget_of(body: dict) -> object:
    """The ``thinkingBudget`` ``body`` sends (None: none)."""
    config = body.get("generationConfig")
    thinking = config.get("thinkingConfig") if isinstance(config, dict) else None
    return thinking.get("thinkingBudget") if isinstance(thinking, dict) else None


def refusals(body: dict, row: ModelRow) -> list[str]:
    """Gemini's refusal of ``body``'s thinking budget for ``row``'s model, in its words (empty: it takes it)."""
    budget = budget_of(body)
    if row.budgets is None or budget is None or budget == DYNAMIC:
        return []
    if budget == 0:
        return [] if row.can_disable else [GEMINI_ALWAYS_THINKS]
    low, high = row.budgets
    if not isinstance(budget, int) or isinstance(budget, bool) or not low <= budget <= high:
        return [GEMINI_BUDGET_INVALID.format(budget=budget)]
    return []
