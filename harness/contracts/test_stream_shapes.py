"""Contract: in every format, a turn in any layout it arrives in decodes to that turn (a relay's layout: or is refused).

Incident: `sse-index-accumulation` (chat: fragments joined by the wrong
identity), `responses-parallel-index-zero` (Responses: a relay's fragments
keyed by a fallback index, parallel calls joined), `gemini-stream-drops-calls`
(Gemini: a streaming path that lost what arrived in the finishing chunk),
`anthropic-zero-argument-tool` (Messages: a call whose input did not arrive
as deltas lost). Each was a decoder written against the provider's usual
layout meeting another one.

Rule: stated once for every format whose strategies row
(``harness.testing.formats``) streams turns and declares its shapes
(``harness.testing.shapes``; each format's ``*_shapes`` module): the layouts
the same turn also arrives in, an optional identity or placement field left
out or repeated, a value carried whole in an opening or closing event instead
of deltas, usage and the finish on another event, a message closed over a
still-open block. The canonical body first decodes to its turn (an adapter
that refuses everything never passes). Then the body in each shape decodes to
the very turn that was streamed, as the format counts two turns the same (its
row's ``comparable``): blocks, values, calls, stop reason and usage. A
relay's shape (outside the format) may instead be refused with an error the
adapter raises on purpose; a crash is never a refusal. Pinned runs put every
pinned example in every shape that moves something in it; a drawn run puts a
drawn turn in a drawn shape.

Level: per test. Wire for the shapes inside the format, which its provider or
its servers send (chat: role on every delta, ``content: null`` beside calls,
the finish on the last delta, usage on the finish chunk or ``null`` before it;
Gemini: usage on every chunk or the last only, the finish in a chunk of its
own, a signature-only part, no ``role`` or ``index``). Robust for the shapes
relays and gateways send outside it (every shape of Messages and Responses
here: values whole in start, ``.done`` or ``response.completed`` events, one
of two identities left out, blocks stopped late or never).

Production fingerprint: a call named ``get_weatherget_weather`` or with no
arguments after a gateway repeated its identity; a reply whose text arrived
only in a ``.done`` or start event saved empty; usage or the finish reason
lost when it came on another chunk; parallel calls merged when a relay
numbered them alike.
"""

import pytest
from hypothesis import example, given, strategies as st

from harness.clip import shown
from harness.contracts.block_checks import assert_same_turn
from harness.testing.formats import PINNED, STRATEGIES, having, wire_format  # noqa: F401 (the fixture)
from harness.testing.shapes import shaped
from harness.under_test.invoke import refused_or_returned, valid

SHAPED = having("streamed_turns", "shapes")
# The formats with shapes inside the format (the wire test) and with relays' shapes (the robust one).
INSIDE = tuple(name for name in SHAPED if any(not shape.relay for shape in STRATEGIES[name].shapes))
RELAYED = tuple(name for name in SHAPED if any(shape.relay for shape in STRATEGIES[name].shapes))


def _judge(stream, wire_format, data, relay: bool) -> None:
    spec, comparable = wire_format.spec, wire_format.strategies.comparable
    shapes = [shape for shape in wire_format.strategies.shapes if shape.relay == relay]
    for turn, cut in wire_format.cases(data, "streamed_turns"):
        body = spec.codec.body(turn, cut)
        assert_same_turn(*comparable(spec.codec.decode(valid(stream).parse_stream(body)), turn),
                         f"{wire_format.name} turn {shown(turn)} in its provider's usual layout: {shown(body)}")
        # Only the shapes that move something in this body (a turn without usage has no usage to move).
        varied_by = {shape: varied for shape in shapes if (varied := shaped(spec, body, shape)) is not None}
        chosen = list(varied_by) if data is PINNED or not varied_by else [
            data.draw(st.sampled_from(list(varied_by)), label="shape")]
        for shape in chosen:
            where = (f"{wire_format.name} turn {shown(turn)} in the shape {shape.name!r} (sent by {shape.sender}): "
                     f"{shown(varied_by[shape])}")
            if relay:
                refused, got = refused_or_returned(stream.parse_stream, varied_by[shape],
                                                   why=f"a relay's layout ({where})")
                if refused:
                    continue
            else:
                got = valid(stream).parse_stream(varied_by[shape])
            assert_same_turn(*comparable(spec.codec.decode(got), turn),
                             f"the stream decoded to another turn than the one streamed; {where}")


@pytest.mark.wire
@pytest.mark.formats(*INSIDE)
@given(data=st.data())
@example(data=PINNED)
def test_a_stream_in_any_shape_of_its_format_decodes_to_its_turn(stream, wire_format, data):
    _judge(stream, wire_format, data, relay=False)


@pytest.mark.robust
@pytest.mark.formats(*RELAYED)
@given(data=st.data())
@example(data=PINNED)
def test_a_stream_in_a_relays_shape_decodes_to_its_turn_or_is_refused(stream, wire_format, data):
    _judge(stream, wire_format, data, relay=True)
