"""Contract: a Responses stream decodes to the items it streamed, each delta on the item its ``item_id`` names.

Incident: `responses-parallel-index-zero` and `responses-delta-before-added`
(deltas put on an item by arrival, not by the ``item_id`` they name); the
rest of those incidents and `responses-encrypted-content-dropped` break the
turn itself: ``test_stream_turns``.

Rule: for any turn (message items of one to three parts, reasoning items with
zero to three summary parts and an ``encrypted_content`` of any character or
none, 0 to 12 function calls, zero-argument calls, in any order) and any way
of cutting each value into deltas (empty pieces included), with the items'
events interleaved and deltas arriving before their item's
``response.output_item.added``, in the named or the data-only form, in any
SSE framing, ``parse_stream`` returns each block's item id and each
reasoning item's summary parts as streamed. Each part is its own assertion.
The turn itself (block types in ``output_index`` order, texts, reasoning
texts, ``encrypted_content`` byte-identical, calls, status, usage) is the
rule every format shares: ``test_stream_turns``, from the same strategies
and pinned examples (``harness.testing.formats``).

Level: wire (the Responses streaming events: a delta names its item by
``item_id`` and ``output_index``; the provider does not order deltas after
their item's ``added`` across items).

Production fingerprint: the next request answers 404 "Item with id 'rs_...'
not found", or a summary comes back on the wrong reasoning item.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.contracts.responses_checks import assert_same_items
from harness.contracts.stream_decode import decoded
from harness.testing.formats import PINNED, wire_format  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.wire, pytest.mark.formats("openai-responses")]


@given(data=st.data())
@example(data=PINNED)
def test_any_cut_and_order_of_any_turn_keeps_its_item_ids_and_summaries(stream, wire_format, data):
    for turn, plan in wire_format.cases(data, "streamed_turns"):
        got, where = decoded(stream, wire_format.name, turn, plan)
        assert isinstance(got, dict), f"parse_stream returned {shown(got)}, but should return a turn; {where}"
        assert_same_items(got, turn, where)
