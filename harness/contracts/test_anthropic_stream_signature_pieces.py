"""Contract: a signature cut over several ``signature_delta`` events is its pieces joined in arrival order.

Incident: `anthropic-signature-delta`: decoders that kept only the last
signature piece sent the block back with a partial signature.

Rule: for any turn with thinking blocks and any cut of each signature into
``signature_delta`` pieces (empty pieces included, the other values cut as
Anthropic cuts them), every thinking block's signature after ``parse_stream``
is its pieces joined in arrival order, byte for byte.

Level: robust. Anthropic sends a block's signature in one ``signature_delta``,
and correct client libraries rely on that: anthropic-python and the Vercel AI
SDK assign each piece instead of appending it. No public endpoint is known to
send a signature in pieces; the shape is that of a relay or gateway that
re-chunks deltas to its own sizes, and a decoder that stays correct behind
one joins the pieces. Anthropic's own cuts are `test_anthropic_stream_blocks.py`.

Production fingerprint: behind a re-chunking relay, ``Invalid `signature` in
`thinking` block`` on the request after every thinking turn, and the
signature sent back is a suffix of the one streamed.
"""

import pytest
from hypothesis import example, given

from harness.testing.anthropic_incident import SPLIT_PLAN, TURN
from harness.contracts.block_checks import assert_signatures
from harness.clip import shown
from harness.testing import anthropic_streamed_turns as streamed_turns
from harness.testing.anthropic_streams import turns
from harness.under_test.invoke import valid
from harness.wire.anthropic_events import Plan, turn_body

pytestmark = [pytest.mark.robust, pytest.mark.formats("anthropic")]

_signed = turns(max_calls=2).filter(lambda t: any(b["type"] == "reasoning" and len(b["signature"]) > 1 for b in t["blocks"]))
EMPTY_PIECES = (((("signature", ""), ("signature", "c2ln"), ("signature", ""), ("signature", "LTI=")),))
SIGNED = {"blocks": [{"type": "reasoning", "text": "", "signature": "c2lnLTI="}], "stop_reason": "end_turn",
          "usage": {"input_tokens": 9, "output_tokens": 3}}


@given(streamed_turns(split_signatures=True, turn=_signed))
@example((TURN, SPLIT_PLAN))
@example((SIGNED, Plan(pieces=EMPTY_PIECES, start_usage={"input_tokens": 9, "output_tokens": 1})))
def test_signature_pieces_are_joined_in_arrival_order(stream, sample):
    turn, plan = sample
    body = turn_body(turn, plan)
    got = valid(stream).parse_stream(body)
    where = f"turn {shown(turn)}; stream: {shown(body)}"
    assert isinstance(got, dict), f"parse_stream returned {shown(got)}, but should return a turn; {where}"
    assert_signatures(got, turn, where)
