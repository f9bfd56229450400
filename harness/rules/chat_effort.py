"""``reasoning_effort`` beside function tools on chat completions, judged per model row.

OpenAI's newest families refuse function tools together with a reasoning
effort on ``/v1/chat/completions`` (``reasoning_effort`` ``"none"`` is
taken, and so is no effort at all); the other rows take both
(:mod:`harness.rules.models`).
"""

from __future__ import annotations

from harness.rules.models import OPENAI_TOOLS_WITH_EFFORT, ModelRow


def function_tools(body: dict) -> bool:
    """Whether ``body`` declares a function tool."""
    tools = body.get("tools")
    return isinstance(tools, list) and any(isinstance(t, dict) and t.get("type") == "function" for t in tools)


def refusals(body: dict, row: ModelRow) -> list[str]:
    """OpenAI's refusal of ``body`` for ``row``'s model, in its words (empty: it takes the body)."""
    if row.tools_with_effort or body.get("reasoning_effort") in (None, "none") or not function_tools(body):
        return []
    model = body.get("model") if isinstance(body.get("model"), str) else row.example
    return [OPENAI_TOOLS_WITH_EFFORT.format(model=model)]
