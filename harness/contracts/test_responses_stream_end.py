"""Contract: a Responses stream that did not complete is never returned as a complete turn.

Incident: `responses-incomplete-as-complete`: decoders that returned what had
arrived when the stream ended in ``response.failed``, ``response.incomplete``
or ``error``, or was cut off, and so persisted half a turn.

Rule: the same stream ending in ``response.completed`` decodes to its turn
(a decoder that refuses everything never passes); ending instead in
``response.failed``, ``response.incomplete``, an ``error`` event at any
position, or cut before its last event, ``parse_stream`` refuses it; and
cut at any byte it refuses, or returns the whole turn (only a cut past the
end of ``response.completed``'s data can), never a part of it.

Level: wire (the Responses streaming events: only ``response.completed``
ends a turn that completed).

Production fingerprint: a session whose history holds an assistant turn the
provider never finished (a reasoning item with nothing after it, a call with
half its arguments), refused on the next request.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.contracts.body_cuts import cut_points
from harness.contracts.block_checks import assert_same_turn
from harness.testing.responses_incident import TURN
from harness.testing import responses_streamed_turns as streamed_turns
from harness.under_test.invoke import CRASHES, refusal, valid
from harness.wire.responses_events import Plan, turn_body, turn_events

pytestmark = [pytest.mark.wire, pytest.mark.formats("openai-responses")]

_turns = streamed_turns(max_calls=4, interleaved=True)


@given(_turns, st.sampled_from(["failed", "incomplete"]))
@example((TURN, Plan()), "failed")
@example((TURN, Plan()), "incomplete")
def test_a_failed_or_incomplete_response_is_refused(stream, sample, end):
    turn, plan = sample
    got = valid(stream).parse_stream(turn_body(turn, plan))
    assert_same_turn(got, turn, f"the same stream ending in response.completed: {shown(turn_body(turn, plan))}")
    body = turn_body(turn, Plan(pieces=plan.pieces, steps=plan.steps, named=plan.named, framing=plan.framing, end=end))
    refusal(stream.parse_stream, body, why=f"the stream ends in response.{end}: {shown(body)}")


@given(_turns, st.integers(0, 10**6))
@example((TURN, Plan()), 10**6)
def test_an_error_event_or_a_cut_is_refused(stream, sample, position):
    turn, plan = sample
    at = position % len(turn_events(turn, plan))
    for changed in (Plan(pieces=plan.pieces, steps=plan.steps, named=plan.named, error=at),
                    Plan(pieces=plan.pieces, steps=plan.steps, named=plan.named, cut=at)):
        body = turn_body(turn, changed)
        what = f"an error event at event {at}" if changed.error is not None else f"a cut after {at} events"
        refusal(stream.parse_stream, body, why=f"the stream ends with {what}: {shown(body)}")


def _cut_is_refused_or_whole(stream, turn: dict, body: bytes, n: int) -> None:
    try:
        got = stream.parse_stream(body[:n])
    except CRASHES as exc:
        raise AssertionError(f"parse_stream crashed with {type(exc).__name__}: {exc} on the body cut after byte {n}: "
                             f"{shown(body[:n])}; a cut body should be refused on purpose") from exc
    except Exception:
        return
    assert_same_turn(got, turn, f"the body cut after byte {n} of {len(body)} returned a turn: {shown(body[:n])}")


@given(_turns, st.integers(0, 10**6))
def test_a_body_cut_at_any_byte_is_refused_or_whole(stream, sample, position):
    turn, plan = sample
    body = turn_body(turn, plan)
    _cut_is_refused_or_whole(stream, turn, body, position % len(body))


def test_the_pinned_turn_cut_at_every_byte_is_refused_or_whole(stream):
    body = turn_body(TURN, Plan())
    for n in cut_points(body):
        _cut_is_refused_or_whole(stream, TURN, body, n)
