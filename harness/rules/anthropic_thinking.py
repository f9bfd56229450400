"""Anthropic's thinking parameters, judged per model row (:mod:`harness.rules.models`).

Thinking is on in one of two forms: ``{"type": "adaptive"}`` with the depth
in ``output_config.effort`` (Claude 4.6 and later), or ``{"type": "enabled",
"budget_tokens": N}`` with N >= 1024 and below ``max_tokens`` (every model up
to 4.6; refused by the adaptive-only ones). ``{"type": "disabled"}`` or no
``thinking`` turns it off, except on the models that always think, which
refuse ``disabled`` and think adaptively when the key is absent.

A request judged as its model judges it (:func:`request_refusals`) is also
held to the model's prefill rule: the models that take no assistant prefill
refuse a request whose last message is the assistant's.

Where the provider's own text is known it is quoted; the others are our
words, and say so.
"""

from __future__ import annotations

from harness.clip import shown
from harness.rules import anthropic_history
from harness.rules.models import (ADAPTIVE, ANTHROPIC_DISABLED_REFUSED, ANTHROPIC_ENABLED_REFUSED,
                                  ANTHROPIC_PREFILL_REFUSED, BUDGET, ModelRow, row_for)

FORM_OF_MODEL = "thinking-form-of-model"  # the registry's names of the rules
PREFILL_OF_MODEL = "prefill-of-model"

MIN_BUDGET = 1024


def effective(body: dict, row: ModelRow) -> dict:
    """``body`` with the ``thinking`` the model applies: a model that always thinks does so when none is sent."""
    if "thinking" not in body and not row.can_disable:
        return {**body, "thinking": {"type": ADAPTIVE}}
    return body


def thinking_on(body: dict) -> str | None:
    """The form that turns thinking on in ``body`` ("adaptive" or "budget"), None when it is off or absent."""
    kind = (body.get("thinking") or {}).get("type") if isinstance(body.get("thinking"), dict) else None
    return {"adaptive": ADAPTIVE, "enabled": BUDGET}.get(kind)


def refusals(body: dict, row: ModelRow) -> list[str]:
    """Why the model of ``row`` refuses ``body``'s thinking parameters (empty: it takes them)."""
    thinking = body.get("thinking")
    if thinking is None:
        return _effort_problems(body, row)
    if not isinstance(thinking, dict):
        return [f"thinking: expected an object, got {shown(thinking)} (our words: no provider text is recorded)"]
    kind = thinking.get("type")
    if kind == "disabled":
        return [] if row.can_disable else [ANTHROPIC_DISABLED_REFUSED]
    if kind == "enabled":
        if BUDGET not in row.thinking:
            return [ANTHROPIC_ENABLED_REFUSED]
        return _budget_problems(thinking, body.get("max_tokens")) + _effort_problems(body, row)
    if kind == "adaptive":
        if ADAPTIVE not in row.thinking:
            return [f"{row.example} takes thinking with budget_tokens only, not thinking.type adaptive "
                    "(our words: no provider text is recorded)"]
        return _effort_problems(body, row)
    return [f"thinking.type: expected adaptive, enabled or disabled, got {shown(kind)} "
            "(our words: no provider text is recorded)"]


def _budget_problems(thinking: dict, max_tokens: object) -> list[str]:
    budget = thinking.get("budget_tokens")
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < MIN_BUDGET:
        return [f"thinking.budget_tokens: expected an integer >= {MIN_BUDGET}, got {shown(budget)}"]
    if not isinstance(max_tokens, int) or budget >= max_tokens:
        return [f"`max_tokens` must be greater than `thinking.budget_tokens` (budget {budget}, max_tokens "
                f"{shown(max_tokens)})"]
    return []


def _effort_problems(body: dict, row: ModelRow) -> list[str]:
    config = body.get("output_config")
    if config is None or isinstance(config, dict) and "effort" not in config:  # other settings (format) stand alone
        return []
    effort = config.get("effort") if isinstance(config, dict) else config
    if not row.efforts:
        return [f"{row.example} takes no output_config.effort (got {shown(effort)}; our words: no provider text "
                "is recorded)"]
    if effort not in row.efforts:
        return [f"output_config.effort: {row.example} takes {', '.join(row.efforts)}, got {shown(effort)} "
                "(our words: no provider text is recorded)"]
    return []


def prefill_refusals(body: dict, row: ModelRow) -> list[anthropic_history.Refusal]:
    """The refusal of a request that ends with an assistant message, by a model that takes no prefill."""
    messages = body.get("messages") if isinstance(body.get("messages"), list) else []
    last = messages[-1] if messages else None
    if row.prefill or not (isinstance(last, dict) and last.get("role") == "assistant"):
        return []
    return [anthropic_history.Refusal(PREFILL_OF_MODEL, f"messages.{len(messages) - 1}", ANTHROPIC_PREFILL_REFUSED)]


def request_refusals(body: dict, sent: list[dict] | None = None) -> list[anthropic_history.Refusal]:
    """Every refusal of a Messages request as its model judges it: the thinking parameters and the prefill rule
    by the model's row (a model the table does not know: none of these), then the history rules, thinking on
    where the model thinks by default."""
    row = row_for(body["model"]) if isinstance(body.get("model"), str) else None
    if row is None or row.format != "anthropic":
        return anthropic_history.refusals(body, sent)
    said = [anthropic_history.Refusal(FORM_OF_MODEL, "thinking", text) for text in refusals(body, row)]
    return said + prefill_refusals(body, row) + anthropic_history.refusals(effective(body, row), sent)
