"""Contract: a Messages stream decodes to the turn it streamed, however Anthropic cuts its values into deltas.

Incident: `anthropic-signature-delta`, `anthropic-redacted-thinking` and
`anthropic-zero-argument-tool`: streaming decoders that dropped
``signature_delta``, dropped redacted_thinking blocks or turned them into
empty text, and lost calls that streamed only ``""``.

Rule: for any turn (text, thinking, redacted_thinking and tool_use blocks in
any order, 0 to 12 calls, empty and unicode text, opaque values of any
character a JSON string carries, every stop reason) and any way Anthropic
cuts it (text, thinking and ``partial_json`` in pieces anywhere, empty pieces
included, each value one character per delta, a zero-argument call as ``""``
pieces only; each signature in one ``signature_delta``), with ``ping`` events
anywhere, usage split between ``message_start`` and ``message_delta``, in any
SSE framing, ``parse_stream`` returns the turn: the block types in index
order; each text; each thinking text; each signature and each redacted
``data`` byte-identical; each call's id, name and arguments (a JSON value);
the stop reason; the usage merged key by key. Each part is its own assertion.

Level: wire. Every cut here is one Anthropic makes: it streams text,
thinking and partial JSON in pieces of any size, sends an empty
``partial_json`` first (and only that for a call without arguments), and
sends ``ping`` events "dispersed throughout the response"; the SSE rules
(WHATWG) allow every framing drawn. What Anthropic does not send is left to
robust contracts, because correct client libraries fail it: a signature over
several deltas (Anthropic sends it in one; anthropic-python and the Vercel AI
SDK keep the last piece) is `test_anthropic_stream_signature_pieces.py`; the
data-only form (no ``event:`` line) is a relay's, which the Anthropic SDKs
skip, `test_anthropic_stream_data_only.py`; deltas of several open blocks
interleaved are translators', `test_anthropic_stream_interleaved.py`.

Production fingerprint: ``Invalid `signature` in `thinking` block`` on the
request after a tool round; a thinking turn that comes back one block short,
or with an empty text block Anthropic refuses (``text content blocks must be
non-empty``); a tool without parameters never runs.
"""

from dataclasses import replace

import pytest
from hypothesis import example, given

from harness.testing.anthropic_incident import PLAN, TURN
from harness.contracts.block_checks import assert_same_turn
from harness.clip import shown
from harness.testing import anthropic_streamed_turns as streamed_turns
from harness.under_test.invoke import valid
from harness.wire.anthropic_events import STREAMED, Plan, in_order, turn_body

pytestmark = [pytest.mark.wire, pytest.mark.formats("anthropic")]


def _every_character(turn: dict) -> Plan:
    """Each value one character per delta (a zero-argument call: one ``""``; a signature whole)."""
    def cut(kind: str, value: str) -> list[str]:
        if kind == "signature":
            return [value] if value else []
        return list(value) or ([""] if kind == "arguments" else [])

    pieces = tuple(tuple((kind, ch) for kind, key in STREAMED[b["type"]] for ch in cut(kind, b[key]))
                   for b in turn["blocks"])
    return Plan(pieces=pieces, steps=in_order(pieces), start_usage=PLAN.start_usage, pings=PLAN.pings)


# A space inside a string argument, streamed as its own delta: whitespace-only pieces are part of the value.
SPACED = {**TURN, "blocks": [{"type": "tool_call", "id": "toolu_01SpacedQ7cL2mVx9", "name": "search",
                              "arguments": '{"query": "New York"}'}]}


def _decodes(stream, turn: dict, plan: Plan) -> None:
    body = turn_body(turn, plan)
    got = valid(stream).parse_stream(body)
    assert_same_turn(got, turn, f"turn {shown(turn)}; stream: {shown(body)}")


@given(streamed_turns())
@example((TURN, PLAN))
@example((TURN, _every_character(TURN)))
@example((SPACED, _every_character(SPACED)))
@example((TURN, replace(PLAN, repeated_usage=("input_tokens", "cache_read_input_tokens"))))
def test_any_cut_of_any_turn_decodes_to_that_turn(stream, sample):
    turn, plan = sample
    _decodes(stream, turn, plan)
