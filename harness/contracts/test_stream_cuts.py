"""Contract: in every format, a stream cut short is refused or decodes to the whole turn, never to part of it.

Incident: `gemini-stream-drops-calls` (a streaming path that lost the calls
and reported the turn as stopped), `anthropic-signature-delta` (a turn saved
with half its signature, then a 400 on the next request), and the rule every
format shares: a stream that did not complete is never persisted or replayed
as complete.

Rule: stated once for every format whose wire says what ends a turn (its
row's ``terminal``: Messages' ``message_stop``, Responses'
``response.completed``, Gemini's ``finishReason``; chat has none a client
may require, since gateways end chat turns without a finish reason or
``[DONE]``), through its codec and framing (:mod:`harness.formats`). The
whole body first decodes (an adapter that
refuses everything never passes). Then the body cut at any byte (inside a
frame, or between two frames of the format's framing: SSE events, NDJSON
lines) is either refused with an error the adapter raises on purpose, or
decodes to the very turn that was streamed, every block, value, call, stop
reason and usage (a cut inside the trailing separators may leave the turn
whole). Returning a turn with a block missing or a value short is the bug; so
is a crash. Pinned runs cut each pinned body at every frame end and inside
every frame; a drawn run cuts a drawn body at a drawn byte.

Level: wire (what each format's streaming rules say ends a turn).

Production fingerprint: half an answer saved as the whole one; calls whose
arguments stop mid-object; a reasoning signature missing its tail, then
``Invalid `signature` in `thinking` block``.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.contracts.block_checks import assert_same_turn
from harness.formats import spec_for
from harness.testing.formats import PINNED, having, wire_format  # noqa: F401 (the fixture)
from harness.under_test.invoke import refused_or_returned, valid

# The formats whose wire says what ends a turn (chat's does not: its gateways end turns without a finish).
ENDED = tuple(name for name in having("streamed_turns") if spec_for(name).terminal)
pytestmark = [pytest.mark.wire, pytest.mark.formats(*ENDED)]


def _cuts(body: bytes, frame_ends: list[int]) -> list[int]:
    """Every frame end before the body's end, and the middle of every frame."""
    starts = [0, *frame_ends]
    middles = [(a + b) // 2 for a, b in zip(starts, [*frame_ends, len(body)])]
    return sorted({c for c in [*frame_ends, *middles] if 0 <= c < len(body)})


@given(data=st.data())
@example(data=PINNED)
def test_a_cut_stream_is_refused_or_whole(stream, wire_format, data):
    codec, framing = wire_format.spec.codec, wire_format.spec.framing
    for turn, cut in wire_format.cases(data, "streamed_turns"):
        body = codec.body(turn, cut)
        valid(stream).parse_stream(body)
        cuts = _cuts(body, framing.frame_ends(body)) if data is PINNED else [
            data.draw(st.integers(0, len(body) - 1), label="cut at byte")]
        for at in cuts:
            where = (f"{wire_format.name} turn {shown(turn)} streamed as {len(body)} bytes, cut at byte {at}: "
                     f"{shown(body[:at])}")
            refused, got = refused_or_returned(stream.parse_stream, body[:at], why=f"the body is cut short ({where})")
            if not refused:
                assert_same_turn(*wire_format.strategies.comparable(codec.decode(got), turn),
                                 f"a cut stream returned as a turn that is not the whole one; {where}")
