"""Contract: a body that is not a whole Messages turn is refused, never returned as a turn.

Incident: `anthropic-incomplete-stream`: decoders that had no branch for the
``error`` event Anthropic sends after a 200, or that took the end of the body
for the end of the turn, returned the partial answer as complete; a relay
that sent block events before ``message_start`` passed as a complete answer.

Rule: for any turn streamed as Anthropic streams it, ``parse_stream``
answers the whole body (checked first, so that refusing everything never
passes) and refuses, with an exception it raises on purpose (not a
``TypeError``, ``KeyError`` and the like): the body with an ``error`` event
in place of any event from ``message_start`` to ``message_stop``, the stream
ending there (as Anthropic ends it); every strict prefix of the body that ends
before ``message_stop``'s data is complete (a drawn one; for the pinned body a
cut at every kind of place, :mod:`harness.contracts.body_cuts`: inside an
event, inside a line end, inside a UTF-8 sequence, between events, and one
byte short of ``message_stop``'s data); the body
with ``message_start`` moved after a block event; the body with an ``error``
event before any of its events and the rest of the turn after it. Each is
its own test.

Level: per test. Wire for the ``error`` event and the cut body: the Messages
format ends every turn with ``message_stop`` and reports a failure after the
200 as an ``error`` event; the Anthropic SDKs raise on an ``error`` event.
Robust for a block event before ``message_start``: Anthropic opens every
stream with ``message_start``, so only a relay that reorders events sends
this, and client libraries do not look for it (anthropic-python passes events
before ``message_start`` through without accumulating them), and for an
``error`` event the rest of the turn follows: Anthropic ends the stream at
one, a relay that passes it along may keep relaying; the SDKs raise on an
``error`` event whatever follows it.

Production fingerprint: during an overload a half-written answer is saved as
complete and no failover happens; a tool call cut mid-JSON is run; a
conversation continues from a turn that never finished.
"""

from dataclasses import replace

import pytest
from hypothesis import example, given, strategies as st

from harness.testing.anthropic_incident import PLAN, TURN
from harness.clip import shown
from harness.contracts.body_cuts import cut_points
from harness.testing import anthropic_streamed_turns as streamed_turns
from harness.testing.anthropic_streams import turns
from harness.under_test.invoke import refusal, valid
from harness.wire.anthropic_events import Plan, frame, turn_body, turn_events
from harness.testing import Framing

pytestmark = pytest.mark.formats("anthropic")

_STOP = b'"message_stop"}'


def _answered(stream, body: bytes) -> None:
    got = valid(stream).parse_stream(body)
    assert isinstance(got, dict), f"parse_stream returned {shown(got)} for a whole turn's body: {shown(body)}"


def _stop_complete(body: bytes) -> int:
    """The length of the shortest prefix that holds ``message_stop``'s whole data."""
    return body.rindex(_STOP) + len(_STOP)


@pytest.mark.wire
@given(streamed_turns(max_calls=3), st.data())
@example((TURN, PLAN), None)
def test_an_error_event_is_refused_wherever_it_comes(stream, sample, data):
    turn, plan = sample
    _answered(stream, turn_body(turn, plan))
    last = len(turn_events(turn, Plan(pieces=plan.pieces, steps=plan.steps))) - 1
    position = last if data is None else data.draw(st.integers(0, last), label="error at event")
    body = turn_body(turn, replace(plan, error=position))
    refusal(stream.parse_stream, body, why=f"an error event comes at event {position} and the stream ends there")


@pytest.mark.wire
@given(streamed_turns(max_calls=3), st.data())
def test_a_body_cut_before_message_stop_is_refused(stream, sample, data):
    turn, plan = sample
    body = turn_body(turn, plan)
    _answered(stream, body)
    cut = data.draw(st.integers(0, _stop_complete(body) - 1), label="bytes kept")
    refusal(stream.parse_stream, body[:cut], why=f"the body is cut after {cut} of {len(body)} bytes, before "
            "message_stop")


@pytest.mark.wire
def test_every_prefix_of_the_incident_stream_is_refused(stream):
    # CRLF line ends and keep-alive comments: cuts inside a line end and between comment and event too.
    body = turn_body(TURN, replace(PLAN, framing=Framing(line_end="\r\n", keep_alive=True)))
    _answered(stream, body)
    stop = _stop_complete(body)
    for cut in sorted({*(cut for cut in cut_points(body) if cut < stop), stop - 1}):
        refusal(stream.parse_stream, body[:cut], why=f"the body is cut after {cut} of {len(body)} bytes, before "
                "message_stop")


@pytest.mark.robust
@given(streamed_turns(turn=turns(max_calls=3).filter(lambda t: t["blocks"])), st.data())
@example((TURN, PLAN), None)
def test_a_block_event_before_message_start_is_refused(stream, sample, data):
    turn, plan = sample
    events = turn_events(turn, plan)
    frame_plan = Plan(named=plan.named, framing=plan.framing)
    _answered(stream, frame(events, frame_plan))
    start = next(n for n, e in enumerate(events) if e["type"] == "message_start")
    blocks = [n for n, e in enumerate(events) if e["type"].startswith("content_block_")]
    after = blocks[0] if data is None else data.draw(st.sampled_from(blocks), label="message_start after event")
    moved = [e for n, e in enumerate(events) if n != start]
    moved.insert(moved.index(events[after]) + 1, events[start])
    refusal(stream.parse_stream, frame(moved, frame_plan),
            why=f"{events[after]['type']} (index {events[after].get('index')}) comes before message_start")


# The error event Anthropic sends during an overload.
_OVERLOADED = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}


@pytest.mark.robust
@given(streamed_turns(max_calls=3), st.data())
@example((TURN, PLAN), None)
def test_an_error_event_is_refused_whatever_follows_it(stream, sample, data):
    turn, plan = sample
    events = turn_events(turn, plan)
    frame_plan = Plan(named=plan.named, framing=plan.framing)
    _answered(stream, frame(events, frame_plan))
    at = 1 if data is None else data.draw(st.integers(0, len(events) - 1), label="error before event")
    body = frame([*events[:at], _OVERLOADED, *events[at:]], frame_plan)
    refusal(stream.parse_stream, body, why=f"an error event comes before event {at} ({events[at]['type']}), the rest "
            "of the turn after it, message_stop included")
