"""Contract: a Messages stream decodes to the turn it streamed, however its values are cut into deltas.

Incident: `anthropic-signature-delta`, `anthropic-redacted-thinking` and
`anthropic-zero-argument-tool`: streaming decoders that dropped or overwrote
signature pieces, dropped redacted_thinking blocks or turned them into empty
text, and lost calls that streamed only ``""``.

Rule: for any turn (text, thinking, redacted_thinking and tool_use blocks in
any order, 0 to 12 calls, empty and unicode text, opaque values of any
character a JSON string carries) and any way of cutting each value into
``content_block_delta`` pieces (empty pieces included; a signature over
several ``signature_delta``; a zero-argument call as ``""`` pieces only; each
value one character per delta), with ``ping`` events anywhere, in the named
or the data-only form (no ``event:`` line: the type is the data's ``type``),
in any SSE framing, ``parse_stream`` returns the turn: the block types in
index order; each text; each thinking text; each signature and each redacted
``data`` byte-identical; each call's id, name and raw arguments; the stop
reason; the usage merged key by key. Each part is its own assertion.

Level: wire (the Messages streaming format: blocks are keyed by ``index``,
deltas of one block concatenate, ``ping`` carries nothing, the data-only form
is an SSE body whose events are typed by their data).

Production fingerprint: ``Invalid `signature` in `thinking` block`` on the
request after a tool round; a thinking turn that comes back one block short,
or with an empty text block Anthropic refuses (``text content blocks must be
non-empty``); a tool without parameters never runs.
"""

from dataclasses import replace

import pytest
from hypothesis import example, given

from harness.contracts.anthropic_incident import PLAN, TURN
from harness.contracts.block_checks import assert_same_turn
from harness.clip import shown
from harness.testing.anthropic_streams import streamed_turns
from harness.under_test.invoke import valid
from harness.wire.anthropic_events import STREAMED, Plan, in_order, turn_body

pytestmark = [pytest.mark.wire, pytest.mark.formats("anthropic")]


def _every_character(turn: dict) -> Plan:
    """Each value one character per delta (a zero-argument call: one ``""``)."""
    pieces = tuple(
        tuple((kind, ch) for kind, key in STREAMED[b["type"]] for ch in (b[key] or ([""] if kind == "arguments" else [])))
        for b in turn["blocks"])
    return Plan(pieces=pieces, steps=in_order(pieces), start_usage=PLAN.start_usage, pings=PLAN.pings)


def _decodes(stream, turn: dict, plan: Plan) -> None:
    body = turn_body(turn, plan)
    got = valid(stream).parse_stream(body)
    assert_same_turn(got, turn, f"turn {shown(turn)}; stream: {shown(body)}")


@given(streamed_turns())
@example((TURN, PLAN))
@example((TURN, _every_character(TURN)))
@example((TURN, replace(PLAN, named=False)))
def test_any_cut_of_any_turn_decodes_to_that_turn(stream, sample):
    turn, plan = sample
    _decodes(stream, turn, plan)
