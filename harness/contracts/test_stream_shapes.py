"""Contract: in every format, a turn streamed in any layout its wire allows decodes to that turn, or is refused.

Incident: `sse-index-accumulation` (chat: fragments joined by the wrong
identity), `responses-parallel-index-zero` (Responses: a relay's fragments
keyed by a fallback index, parallel calls joined), `gemini-stream-drops-calls`
(Gemini: a streaming path that lost what arrived in the finishing chunk),
`anthropic-zero-argument-tool` (Messages: a call whose input did not arrive
as deltas lost). Each was a decoder written against the provider's usual
layout meeting a relay's.

Rule: stated once for every format whose strategies row
(``harness.testing.formats``) streams turns and declares its shapes
(``harness.testing.shapes``; each format's ``*_shapes`` module): the layouts
a provider, relay or gateway sends the same turn in, an optional identity or
placement field left out or repeated, a value carried whole in an opening or
closing event instead of deltas, usage and the finish on another event, a
message closed over a still-open block. The canonical body first decodes to
its turn (an adapter that refuses everything never passes). Then the body in
each shape is either refused with an error the adapter raises on purpose
(never for a shape the provider itself sends) or decodes to the very turn
that was streamed, as the format counts two turns the same (its row's
``comparable``): blocks, values, calls, stop reason and usage. Pinned runs
put every pinned example in every shape; a drawn run puts a drawn turn in a
drawn shape.

Level: wire (each shape is a layout the format's clients receive in
production).

Production fingerprint: a call with no name or arguments after a gateway
repeated its id; a reply whose text arrived only in a ``.done`` or start
event saved empty; usage or the finish reason lost when it came on another
chunk; parallel calls merged when a relay numbered them alike.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.contracts.block_checks import assert_same_turn
from harness.testing.formats import PINNED, having, wire_format  # noqa: F401 (the fixture)
from harness.testing.shapes import shaped
from harness.under_test.invoke import refused_or_returned, valid

pytestmark = [pytest.mark.wire, pytest.mark.formats(*having("streamed_turns", "shapes"))]


@given(data=st.data())
@example(data=PINNED)
def test_a_stream_in_any_shape_decodes_to_its_turn_or_is_refused(stream, wire_format, data):
    spec, comparable = wire_format.spec, wire_format.strategies.comparable
    shapes = wire_format.strategies.shapes
    for turn, cut in wire_format.cases(data, "streamed_turns"):
        body = spec.codec.body(turn, cut)
        assert_same_turn(*comparable(spec.codec.decode(valid(stream).parse_stream(body)), turn),
                         f"{wire_format.name} turn {shown(turn)} in its provider's layout: {shown(body)}")
        # Only the shapes that move something in this body (a turn without usage has no usage to move).
        varied_by = {shape: varied for shape in shapes if (varied := shaped(spec, body, shape)) is not None}
        chosen = list(varied_by) if data is PINNED or not varied_by else [
            data.draw(st.sampled_from(list(varied_by)), label="shape")]
        for shape in chosen:
            varied = varied_by[shape]
            where = (f"{wire_format.name} turn {shown(turn)} in the shape {shape.name!r} (sent by {shape.sender}): "
                     f"{shown(varied)}")
            if shape.refusable:
                refused, got = refused_or_returned(stream.parse_stream, varied, why=f"a relay's layout ({where})")
                if refused:
                    continue
            else:
                got = valid(stream).parse_stream(varied)
            assert_same_turn(*comparable(spec.codec.decode(got), turn),
                             f"the stream decoded to another turn than the one streamed; {where}")
