"""Contract: Gemini streams as relays deliver them decode like Gemini's own: an unclosed last event, default finish reasons.

Incident: `gemini-stream-drops-calls` (a streaming path that ended the turn
early and reported it as stopped); the framing incident of
`sse-index-accumulation` on this format, where the last event holds the
finish reason.

Rule: (1) a body that stops right after its last ``data:`` line, without
the blank line that closes the event, decodes to the same turn as the
closed one. (2) When every chunk before the finish carries ``finishReason:
"FINISH_REASON_UNSPECIFIED"`` (the enum's default value), the turn decodes
with its real finish reason, and the body cut before its finish chunk is
still refused: the default value finishes nothing. Each its own test.

Level: robust. (1) The SSE rules discard an event the body stops inside, so
reading it goes beyond them: relay gateways and proxies that close the
connection right after the last ``data:`` line send it (the framing reports
behind `sse-index-accumulation`). (2) Gemini's JSON leaves a default enum
out; Vertex AI's interim results carry the unspecified value in its
protocol-buffer clients (googleapis/google-cloud-dotnet PR 15173), and relays
that re-serialize those messages with their default values write it into
the JSON.

Production fingerprint: behind one gateway every turn fails to decode, or
ends one chunk early with no finish reason; a turn cut off mid-stream taken
for a finished one.
"""

from dataclasses import replace

import pytest
from hypothesis import example, given

from harness.clip import shown
from harness.contracts.gemini_checks import assert_same_gemini_turn
from harness.testing.gemini_incident import PARALLEL, PARALLEL_PLAN
from harness.testing import gemini_streamed_turns as streamed_turns
from harness.under_test.invoke import refusal, valid
from harness.wire.gemini_events import turn_body

pytestmark = [pytest.mark.robust, pytest.mark.formats("gemini")]

UNSPECIFIED = "FINISH_REASON_UNSPECIFIED"


@given(streamed_turns(max_calls=4))
@example((PARALLEL, PARALLEL_PLAN))
def test_a_last_event_left_unclosed_decodes_the_same(stream, sample):
    turn, plan = sample
    body = turn_body(turn, replace(plan, framing=replace(plan.framing, keep_alive=False, terminated=False)))
    got = valid(stream).parse_stream(body)
    assert_same_gemini_turn(got, turn, f"turn {shown(turn)}; stream ending without its blank line: {shown(body)}")


@given(streamed_turns(max_calls=4))
@example((PARALLEL, PARALLEL_PLAN))
def test_the_default_finish_reason_finishes_nothing(stream, sample):
    turn, plan = sample
    interim = replace(plan, interim_finish=UNSPECIFIED)
    body = turn_body(turn, interim)
    got = valid(stream).parse_stream(body)
    assert_same_gemini_turn(got, turn, f"turn {shown(turn)}; interim chunks with {UNSPECIFIED}: {shown(body)}")
    chunks = len(plan.groups or ()) + plan.finish_alone
    if chunks > 1:
        cut = turn_body(turn, replace(interim, cut=chunks - 1))
        refusal(stream.parse_stream, cut,
                why=f"the body ends before its finish chunk; the chunks before it carry {UNSPECIFIED}: {shown(cut)}")
