"""Contract: a Responses stream decodes to the turn it streamed, each delta on the item its ``item_id`` names.

Incident: `responses-parallel-index-zero` (a bridge joined the arguments of
parallel calls into one), `responses-delta-before-added` (an accumulator
raised on a delta for an item it had not seen added) and
`responses-encrypted-content-dropped` (a parser kept id and summary and threw
away ``encrypted_content``).

Rule: for any turn (message items of one to three parts, reasoning items with
zero to three summary parts and an ``encrypted_content`` of any character or
none, 0 to 12 function calls, zero-argument calls, in any order) and any way
of cutting each value into deltas (empty pieces included), with the items'
events interleaved and deltas arriving before their item's
``response.output_item.added``, in the named or the data-only form, in any
SSE framing, ``parse_stream`` returns the turn: block types in
``output_index`` order; texts; reasoning texts; ``encrypted_content``
byte-identical; each call's ``call_id``, name and arguments (as JSON values); the status
of ``response.completed``; its usage verbatim; each item id and each summary
part. Each part is its own assertion.

Level: wire (the Responses streaming events: a delta names its item by
``item_id`` and ``output_index``; the provider does not order deltas after
their item's ``added`` across items).

Production fingerprint: two parallel calls come back as one call whose
arguments are both JSON texts run together (``Extra data``); ``IndexError``
in the stream accumulator; the next request under ``store: false`` answers
400 ``invalid_encrypted_content`` or 404 "Item with id 'rs_...' not found".
"""

import pytest
from hypothesis import example, given

from harness.contracts.block_checks import assert_same_turn
from harness.contracts.responses_checks import assert_same_items
from harness.contracts.stream_decode import decoded
from harness.testing import responses_streamed_turns as streamed_turns
from harness.wire.responses_events import Plan

pytestmark = [pytest.mark.wire, pytest.mark.formats("openai-responses")]

# Pinned: reasoning, text and two parallel calls whose deltas interleave and arrive before either call is added.
TURN = {"blocks": [
    {"type": "reasoning", "text": "Two cities.", "signature": "gAAAAABo+x/9==", "item_id": "rs_01", "summary": ["Two cities."]},
    {"type": "text", "text": "Checking both.", "item_id": "msg_01"},
    {"type": "tool_call", "id": "call_A", "name": "get_weather", "arguments": '{"city":"Paris"}', "item_id": "fc_A"},
    {"type": "tool_call", "id": "call_B", "name": "get_weather", "arguments": '{"city":"Oslo"}', "item_id": "fc_B"},
], "stop_reason": "completed", "usage": {"input_tokens": 80, "output_tokens": 40, "total_tokens": 120}}
PIECES = ((("Two ", "cities."),), (("Checking", " both."),), (('{"city":', '"Paris"}'),), (('{"city":', '"Oslo"}'),))
EARLY = Plan(pieces=PIECES, steps=(
    ("added", 0), ("delta", 0), ("delta", 0), ("done", 0), ("added", 1), ("delta", 1), ("delta", 1), ("done", 1),
    ("delta", 2), ("delta", 3), ("delta", 3), ("delta", 2), ("added", 2), ("added", 3), ("done", 3), ("done", 2)))


@given(streamed_turns(interleaved=True, early=True))
@example((TURN, Plan()))
@example((TURN, EARLY))
def test_any_cut_and_order_of_any_turn_decodes_to_that_turn(stream, sample):
    turn, plan = sample
    got, where = decoded(stream, "openai-responses", turn, plan)
    assert_same_turn(got, turn, where)
    assert_same_items(got, turn, where)
