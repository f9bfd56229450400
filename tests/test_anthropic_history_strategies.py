"""The Anthropic history strategies draw what the wire allows, and their expected wire shapes are what it accepts."""

from __future__ import annotations

from hypothesis import given

from harness.rules.anthropic_history import refusals
from harness.testing import anthropic_persisted_rounds, anthropic_tool_loops, anthropic_wire_history
from harness.testing.anthropic_history import calls_of
from harness.formats import spec_for


@given(events=anthropic_persisted_rounds())
def test_the_expected_history_of_any_persisted_rounds_is_accepted(events) -> None:
    # A finished history has no open tool turn, so turns drawn without thinking pass with thinking on too.
    body = {"messages": anthropic_wire_history(events), "thinking": {"type": "enabled", "budget_tokens": 1024}}
    assert refusals(body) == []


@given(loop=anthropic_tool_loops())
def test_a_loop_has_unique_ids_calls_in_every_round_but_the_last_and_opens_each_turn_with_thinking(loop) -> None:
    ids = [c["id"] for turn in loop for c in calls_of(turn)]
    assert len(ids) == len(set(ids))
    assert all(calls_of(t) for t in loop[:-1]) and not calls_of(loop[-1])
    assert all(t["stop_reason"] in spec_for("anthropic").tool_round_ends for t in loop[:-1]) and loop[-1]["stop_reason"] == "end_turn"
    assert all(t["blocks"][0]["type"] in ("reasoning", "redacted_reasoning") for t in loop)
