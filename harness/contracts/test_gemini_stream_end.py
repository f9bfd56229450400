"""Contract: a Gemini stream that did not finish, or that failed, is refused, never returned as a complete turn.

Incident: `gemini-stream-drops-calls` (a streaming path that lost the calls
and reported the turn as stopped); the rule every format shares, that a
stream which did not complete is never persisted or replayed as complete.

Rule: a turn is complete when a chunk carries its ``finishReason``. The
same body is first decoded whole (an adapter that refuses everything never
passes). Then, cut at any byte before the last chunk's data is whole (inside
an event, inside a ``\\r\\n``, inside a UTF-8 sequence, or between events, so
that no chunk with a finish reason arrived), ``parse_stream`` refuses it; and
with an ``error`` chunk (``{"error": {"code", "message", "status"}}``) at any
position, which ends the stream, it refuses it too. A refusal is an error
raised on purpose; a return or a crash (``TypeError``, ``KeyError``, ...)
is not one.

Level: wire (the streaming format: the finish reason ends a response, an
error object replaces it).

Production fingerprint: half an answer saved as the whole one; calls whose
arguments stop mid-object; a provider's 503 mid-stream shown as an empty
reply and never retried.
"""

from dataclasses import replace

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.testing.gemini_incident import PARALLEL, PARALLEL_PLAN
from harness.testing import gemini_streamed_turns as streamed_turns
from harness.under_test.invoke import refusal, valid
from harness.wire.gemini_events import turn_body

pytestmark = [pytest.mark.wire, pytest.mark.formats("gemini")]


def _last_data_end(body: bytes) -> int:
    """Where the last chunk's JSON ends: a cut before it leaves the finish unread."""
    return body.rindex(b"}") + 1


@given(streamed_turns(max_calls=4), st.data())
@example((PARALLEL, PARALLEL_PLAN), None)
def test_a_body_cut_before_its_finish_is_refused(stream, sample, data):
    turn, plan = sample
    body = turn_body(turn, plan)
    valid(stream).parse_stream(body)
    end = _last_data_end(body)
    cut = data.draw(st.integers(0, end - 1), label="cut") if data is not None else body.rindex(b"data:")
    refusal(stream.parse_stream, body[:cut],
            why=f"the body is cut at byte {cut} of {len(body)}, before its finish chunk is whole: {shown(body[:cut])}")


@given(streamed_turns(max_calls=4), st.data())
@example((PARALLEL, PARALLEL_PLAN), None)
def test_an_error_chunk_is_refused(stream, sample, data):
    turn, plan = sample
    valid(stream).parse_stream(turn_body(turn, plan))
    chunks = len(plan.groups or ()) + plan.finish_alone
    # Pinned: the error after every content chunk, the incident's shape (a failure after part of the answer).
    at = data.draw(st.integers(0, chunks), label="error at") if data is not None else chunks
    body = turn_body(turn, replace(plan, error=at))
    refusal(stream.parse_stream, body, why=f"the stream carries an error chunk after {at} chunks: {shown(body)}")
