"""The scripted Anthropic tool loop the kernel contracts share: run it, and the requests as they go out."""

from __future__ import annotations

from harness.clip import shown
from harness.testing import ScriptedModel, ScriptedTool
from harness.testing.anthropic_history import LOOP_QUESTION as QUESTION, RELAYED_LOOPS, TOOL_NAMES
from harness.testing.anthropic_history import as_sent as thinking_as_sent
from harness.under_test.invoke import valid

PINNED = RELAYED_LOOPS[0]


def as_sent(request: dict, loop: list[dict]) -> dict:
    """The request as it goes out for this loop: thinking enabled when the model thought, none when it did not."""
    assert isinstance(request, dict), f"the kernel sent {shown(request)} as a request, not a JSON object"
    return thinking_as_sent(request, loop[:1])  # every round of a loop thinks, or none does


def run(kernel, loop: list[dict]) -> tuple[ScriptedModel, list[dict]]:
    model = ScriptedModel(loop, format="anthropic")
    events = valid(kernel).run_turn(QUESTION, model, [ScriptedTool(name) for name in TOOL_NAMES])["events"]
    assert not model.shortfall(), model.shortfall()
    return model, events
