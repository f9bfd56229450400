"""Contract: a Messages stream without ``event:`` lines is read by each event's data ``type``.

Incident: `anthropic-data-only-relay`: behind proxies that forward only the
``data:`` lines, clients that dispatch on the ``event:`` line saw no event at
all and reported an empty answer or "request ended without sending any
chunks".

Rule: for any turn and any cut Anthropic makes of it (as in
`test_anthropic_stream_blocks.py`), the same events written without their
``event:`` lines decode to the turn: block types, texts, thinking, signatures,
redacted data, calls, stop reason and usage, each its own assertion.

Level: robust. Anthropic names every event, and the Anthropic SDKs skip an
event without a name, so a correct client library fails this. The form is
sent by Anthropic-compatible proxies that strip ``event:`` lines
(claude-code-proxy before its PR 32; the proxies and gateways reported in pi
issues 1983 and 4381 and openclaw issue 37571); each event's data carries its
``type``, which is enough to read it.

Production fingerprint: behind such a proxy every answer is empty, with a
``stop`` reason and zero tokens, or the SDK raises "request ended without
sending any chunks".
"""

from dataclasses import replace

import pytest
from hypothesis import example, given

from harness.testing.anthropic_incident import PLAN, TURN
from harness.contracts.block_checks import assert_same_turn
from harness.clip import shown
from harness.testing import anthropic_streamed_turns as streamed_turns
from harness.under_test.invoke import valid
from harness.wire.anthropic_events import turn_body

pytestmark = [pytest.mark.robust, pytest.mark.formats("anthropic")]


@given(streamed_turns(named=False))
@example((TURN, replace(PLAN, named=False)))
def test_data_only_events_decode_to_the_turn(stream, sample):
    turn, plan = sample
    body = turn_body(turn, plan)
    got = valid(stream).parse_stream(body)
    assert_same_turn(got, turn, f"turn {shown(turn)}; stream: {shown(body)}")
