"""The scripted Anthropic tool loop the kernel contracts share: run it, and the requests as they go out."""

from __future__ import annotations

from harness.clip import shown
from harness.testing import ScriptedModel, ScriptedTool
from harness.testing.anthropic_history import INTERLEAVED_ANSWER, INTERLEAVED_TURN, TOOL_NAMES
from harness.testing.scripted import ended
from harness.under_test.invoke import valid

QUESTION = "What is the weather in Paris and Zurich, and what is in the folder?"
# The incident's loop with its tool round ended as relays end one: "end_turn" and a usage, or no stop reason.
PINNED = [ended(INTERLEAVED_TURN, "anthropic", 1), INTERLEAVED_ANSWER]
PINNED_UNSAID = [ended(INTERLEAVED_TURN, "anthropic", 2), INTERLEAVED_ANSWER]


def thought(loop: list[dict]) -> bool:
    return loop[0]["blocks"][0]["type"] in ("reasoning", "redacted_reasoning")


def as_sent(request: dict, loop: list[dict]) -> dict:
    """The request as it goes out for this loop: thinking enabled when the model thought, none when it did not."""
    assert isinstance(request, dict), f"the kernel sent {shown(request)} as a request, not a JSON object"
    body = {k: v for k, v in request.items() if k != "thinking"}
    return body | ({"thinking": {"type": "enabled", "budget_tokens": 1024}} if thought(loop) else {})


def run(kernel, loop: list[dict]) -> tuple[ScriptedModel, list[dict]]:
    model = ScriptedModel(loop, format="anthropic")
    events = valid(kernel).run_turn(QUESTION, model, [ScriptedTool(name) for name in TOOL_NAMES])["events"]
    assert not model.shortfall(), model.shortfall()
    return model, events
