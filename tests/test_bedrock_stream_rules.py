"""Bedrock's stream rules (harness.rules.bedrock_stream): the codec's layout breaks none, each layout AWS's service
model does not allow breaks the rule it names."""

from __future__ import annotations

import copy

import pytest

from harness.rules import bedrock_stream as rules
from harness.testing.bedrock_incident import PLAN, TURN
from harness.wire.bedrock_events import turn_events

EVENTS = [{kind: payload} for kind, payload in turn_events(TURN, PLAN)]
FIRST_TEXT = next(e["contentBlockDelta"]["contentBlockIndex"] for e in EVENTS
                  if "text" in e.get("contentBlockDelta", {}).get("delta", {}))
FIRST_CALL = next(e["contentBlockStart"]["contentBlockIndex"] for e in EVENTS if "contentBlockStart" in e)


def _insert_before_first_delta_of(index: int, event: dict):
    def vary(events: list) -> list:
        at = next(n for n, e in enumerate(events) if e.get("contentBlockDelta", {}).get("contentBlockIndex") == index)
        return events[:at] + [event] + events[at:]
    return vary


def _without(test) -> callable:
    return lambda events: [e for e in events if not test(e)]


def _metadata(change) -> callable:
    def vary(events: list) -> list:
        change(events[-1]["metadata"])
        return events
    return vary


BROKEN = {
    "an empty start for a text block": (rules.BLOCKS, _insert_before_first_delta_of(
        FIRST_TEXT, {"contentBlockStart": {"contentBlockIndex": FIRST_TEXT, "start": {}}})),
    "a text start for a text block": (rules.BLOCKS, _insert_before_first_delta_of(
        FIRST_TEXT, {"contentBlockStart": {"contentBlockIndex": FIRST_TEXT, "start": {"text": ""}}})),
    "a call's start without its name": (rules.BLOCKS, lambda events: [
        {"contentBlockStart": {**e["contentBlockStart"], "start": {"toolUse": {"toolUseId": "tooluse_1"}}}}
        if "contentBlockStart" in e else e for e in events]),
    "a delta of two members": (rules.BLOCKS, lambda events: [
        {"contentBlockDelta": {**e["contentBlockDelta"], "delta": {"text": "a", "toolUse": {"input": "{}"}}}}
        if "contentBlockDelta" in e else e for e in events]),
    "a text delta in a call's block": (rules.BLOCKS, lambda events: events[:-2] + [
        {"contentBlockDelta": {"contentBlockIndex": FIRST_CALL, "delta": {"text": "x"}}}] + events[-2:]),
    "a block opened before the one below it": (rules.BLOCKS, lambda events: events[:1] + [
        {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"text": "x"}}}] + events[1:]),
    "a block never stopped": (rules.BLOCKS, _without(
        lambda e: e.get("contentBlockStop", {}).get("contentBlockIndex") == FIRST_TEXT)),
    "a role other than the assistant's": (rules.START, lambda events: [{"messageStart": {"role": "user"}}]
                                          + events[1:]),
    "no messageStart": (rules.START, lambda events: events[1:]),
    "metadata without usage": (rules.END, _metadata(lambda m: m.pop("usage"))),
    "metadata without metrics": (rules.END, _metadata(lambda m: m.pop("metrics"))),
    "metadata before messageStop": (rules.END, lambda events: events[:-2] + [events[-1], events[-2]]),
    "messageStop without its stopReason": (rules.END, lambda events: events[:-2] + [{"messageStop": {}}]
                                           + events[-1:]),
    "an event type ConverseStream does not have": (rules.EVENTS, lambda events: events[:1] + [{"ping": {}}]
                                                   + events[1:]),
}


def test_the_codec_layout_breaks_no_rule():
    assert rules.stream_faults(copy.deepcopy(EVENTS)) == []


@pytest.mark.parametrize("name", list(BROKEN))
def test_each_layout_outside_the_service_model_breaks_its_rule(name):
    rule, vary = BROKEN[name]
    faults = rules.stream_faults(vary(copy.deepcopy(EVENTS)))
    assert rule in {f.rule for f in faults}, f"{name}: expected a fault of {rule}, got {faults}"
